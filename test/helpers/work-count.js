// Counts the work decode (and encode) does on each hostile shape, at a small and a 16x larger size,
// without reading a clock: the number of times each block of lib/ code ran (V8's precise coverage
// with call counts, which is deterministic) plus the elements that lib/ hands to the builtins that
// loop inside the engine (a copy, a text decode, a search). Run as a child process
// (`node test/helpers/work-count.js`) so that the builtins are wrapped and counting is on before lib/
// is loaded; prints one JSON object: { [shape]: { small, large, smallBytes, largeBytes } }.
import inspector from 'node:inspector/promises'

const LIB = new URL('../../lib/', import.meta.url).href
const INDEX = new URL('../../index.js', import.meta.url).href

/** elements passed through the wrapped builtins since the last reset */
let elements = 0
/**
 * Wraps a builtin method so that each call adds `size(this, args, result)` to `elements`.
 * @param {any} owner @param {string} name @param {(self: any, args: any[], result: any) => number} size
 */
function count (owner, name, size) {
  const original = owner[name]
  Object.defineProperty(owner, name, {
    configurable: true,
    writable: true,
    value: function (/** @type {any[]} */ ...args) {
      const result = original.apply(this, args)
      elements += size(this, args, result)
      return result
    }
  })
}
const length = (/** @type {any} */ x) => (x && typeof x.length === 'number' ? x.length : x?.byteLength ?? 0)
count(String, 'fromCharCode', (_, args) => args.length)
count(String.prototype, 'substring', (_, __, r) => r.length)
count(String.prototype, 'slice', (_, __, r) => r.length)
count(TextDecoder.prototype, 'decode', (_, [input]) => length(input))
count(Buffer.prototype, 'utf8Slice', (_, [start, end]) => end - start) // Node's text decode (lib/text-decode-node.js)
count(TextEncoder.prototype, 'encodeInto', (_, [s]) => s.length)
count(Uint8Array.prototype, 'subarray', () => 1)
count(Uint8Array.prototype, 'slice', (_, __, r) => r.length)
count(Uint8Array.prototype, 'set', (_, [source]) => length(source))
for (const name of ['indexOf', 'includes', 'lastIndexOf', 'find', 'findIndex', 'some', 'every']) {
  count(Array.prototype, name, (self) => self.length)
}
count(Array.prototype, 'slice', (_, __, r) => r.length)
count(Array.prototype, 'concat', (_, __, r) => r.length)
count(Array.prototype, 'sort', (self) => self.length * Math.ceil(Math.log2(self.length + 1)))
count(Object, 'keys', (_, __, r) => r.length)

const session = new inspector.Session()
session.connect()
await session.post('Profiler.enable')
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true })

const { decode, encode } = await import(INDEX)
const { SHAPES, SCALE, smallSize } = await import('./hostile-shapes.js')

/** block executions in lib/ since the last call, plus the counted builtin elements */
async function takeWork () {
  const { result } = /** @type {any} */ (await session.post('Profiler.takePreciseCoverage'))
  let blocks = 0
  for (const script of result) {
    if (!script.url.startsWith(LIB) && script.url !== INDEX) continue
    for (const fn of script.functions) for (const range of fn.ranges) blocks += range.count
  }
  const work = blocks + elements
  elements = 0
  return work
}

/** @param {() => unknown} fn */
async function workOf (fn) {
  fn() // once first, so that the lazy set-up of a first call is not counted
  await takeWork()
  elements = 0
  fn()
  return takeWork()
}

/** @type {Record<string, { small: number, large: number, smallBytes: number, largeBytes: number }>} */
const out = {}
for (const [label, make] of Object.entries(SHAPES)) {
  const n = smallSize(label)
  const small = make(n)
  const large = make(SCALE * n)
  out[`decode ${label}`] = { small: await workOf(() => decode(small)), large: await workOf(() => decode(large)), smallBytes: small.length, largeBytes: large.length }
}
const smallMap = decode(SHAPES['map of many keys'](smallSize('map of many keys')))
const largeMap = decode(SHAPES['map of many keys'](SCALE * smallSize('map of many keys')))
out['encode map of many keys'] = {
  small: await workOf(() => encode(smallMap)),
  large: await workOf(() => encode(largeMap)),
  smallBytes: Object.keys(smallMap).length,
  largeBytes: Object.keys(largeMap).length
}
process.stdout.write(JSON.stringify(out) + '\n')
session.disconnect()
