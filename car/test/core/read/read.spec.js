// The read stage (lib/core/read/): the reader type's methods, row by row, on a CARv1 and a CARv2 read
// as a stream, as a file this thread reads by position (readRangeSync) and as a file read by
// position with reads ahead (readRange only); and the folder's shape: no function over 150 lines,
// every limit in limits.js.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { openCar, CarFileReader, CarReadError } from '../../../lib/core/read/open-car.js'
import { CID_ROOM, DEFAULT_MAX_BLOCK_SIZE } from '../../../lib/core/read/limits.js'
import { carV1, carV2, varint, section } from '../../helpers/car-oracle.js'

const readDir = new URL('../../../lib/core/read/', import.meta.url).pathname

/** @param {number} n @param {number} seed */
function pattern (n, seed) {
  const out = new Uint8Array(n)
  for (let i = 0; i < n; i++) out[i] = (i * 31 + seed * 17) & 0xff
  return out
}

/** @param {Uint8Array} bytes */
async function rawBlock (bytes) {
  return { cid: CID.create(1, 0x55, await sha256.digest(bytes)), bytes }
}

const blocks = await Promise.all([pattern(100, 1), pattern(5000, 2), pattern(7, 3)].map(rawBlock))
const v1 = new Uint8Array(carV1([blocks[0].cid], blocks))
const index = Uint8Array.from([1, 2, 3, 4, 5])
const v2 = new Uint8Array(carV2(v1, { padding: 3, indexOffset: 11 + 40 + 3 + v1.length, trailer: index }))
const headerLength = v1.length - blocks.map(section).reduce((n, s) => n + s.length, 0)
/** where each block's section starts in the CARv1 */
const offsets = blocks.map((_, i) => headerLength + blocks.slice(0, i).map(section).reduce((n, s) => n + s.length, 0))

/**
 * The input as the reader gets it: chunks of 333 bytes with no size (a pipe), or a file with its size.
 *
 * @param {Uint8Array} bytes
 * @param {'stream' | 'sync' | 'async'} how
 */
function open (bytes, how, options = {}) {
  if (how === 'stream') return openCar((async function * () { for (let i = 0; i < bytes.length; i += 333) yield bytes.slice(i, i + 333) })(), options)
  const file = {
    size: bytes.length,
    stream: async function * (start = 0) { for (let i = start; i < bytes.length; i += 1000) yield bytes.slice(i, Math.min(i + 1000, bytes.length)) },
    readRange: async (/** @type {number} */ start, /** @type {number} */ length, /** @type {Uint8Array | undefined} */ into) => {
      const out = into ?? new Uint8Array(length)
      out.set(bytes.subarray(start, start + length))
      return out.subarray(0, length)
    },
    /** @type {((start: number, length: number, into: Uint8Array) => Uint8Array) | undefined} */
    readRangeSync: undefined
  }
  if (how === 'sync') file.readRangeSync = (start, length, into) => { into.set(bytes.subarray(start, start + length)); return into.subarray(0, length) }
  return openCar(file.stream(), { size: bytes.length, file, ...options })
}

/** @param {import('../../../lib/core/read/open-car.js').Car} car */
async function allBlocks (car) {
  const out = []
  for await (const b of car.blocks()) out.push([String(b.cid), b.bytes.length, b.offset])
  return out
}

/** @param {import('../../../lib/core/read/open-car.js').Car} car */
async function allBatchSections (car) {
  const out = []
  for await (const batch of car.sectionBatches(2048, 2, [])) {
    batch.ends.forEach((_, i) => out.push([batch.first + i, batch.starts[i]]))
  }
  return out
}

/** @param {() => Promise<unknown>} f */
async function failure (f) {
  try { await f() } catch (err) { return [err instanceof CarReadError ? 'CarReadError' : String(err), /** @type {any} */ (err).message] }
  return 'no error'
}

const expectedBlocks = (/** @type {number} */ shift) => blocks.map((b, i) => [String(b.cid), b.bytes.length, offsets[i] + shift])
const v2Shift = 11 + 40 + 3

/**
 * Rows: what a method gives, for each way of reading the input.
 * @type {[string, Uint8Array, (car: CarFileReader) => Promise<unknown> | unknown, unknown][]}
 */
const rows = [
  ['v1: version, roots and v2', v1, (car) => [car.version, car.roots.map(String), car.v2], [1, [String(blocks[0].cid)], null]],
  ['v1: blocks() gives each block with its section offset', v1, allBlocks, expectedBlocks(0)],
  ['v1: sectionBatches() gives every section, counted, at its offset', v1, allBatchSections, offsets.map((o, i) => [i, o])],
  ['v1: position() is after the header, then at the end', v1, async (car) => { const at = car.position(); await allBlocks(car); return [at, car.position()] }, [headerLength, v1.length]],
  ['v1: the methods are bound (handed around as functions)', v1, async (car) => { const { blocks, position } = car; for await (const _ of blocks()); return position() }, v1.length], // eslint-disable-line no-unused-vars
  ['v1: readIndex() and trailingBytes() have nothing to give', v1, async (car) => { await allBlocks(car); return [(await car.readIndex()).length, await car.trailingBytes()] }, [0, 0]],
  ['v2: version and the fixed header', v2, (car) => [car.version, car.v2?.dataOffset, car.v2?.dataSize, car.v2?.indexOffset], [2, v2Shift, v1.length, v2Shift + v1.length]],
  ['v2: blocks() gives the payload\'s blocks at their file offsets', v2, allBlocks, expectedBlocks(v2Shift)],
  ['v2: sectionBatches() stops at the payload\'s end', v2, allBatchSections, offsets.map((o, i) => [i, o + v2Shift])],
  ['v2: dataEnd() is the payload\'s end', v2, async (car) => { await allBatchSections(car); return car.dataEnd() }, v2Shift + v1.length],
  ['v2: readIndex() after the blocks is the bytes after the payload', v2, async (car) => { await allBatchSections(car); return [...await car.readIndex()] }, [...index]],
  ['v2: trailingBytes() after the blocks', v2, async (car) => { await allBlocks(car); return await car.trailingBytes() }, index.length]
]

/** @type {('stream' | 'sync' | 'async')[]} */
const ways = ['stream', 'sync', 'async']

describe('read/: the reader type, method by method', () => {
  for (const [what, bytes, call, expected] of rows) {
    for (const how of ways) {
      it(`${what} (${how})`, async () => {
        const car = await open(bytes, how)
        assert.ok(car instanceof CarFileReader)
        assert.deepEqual(await call(car), expected)
        await car.stop()
      })
    }
  }

  it('sectionAt(offset): the block whose section starts there, or a CarReadError', async () => {
    const car = await open(v1, 'async')
    const got = await car.sectionAt(offsets[1])
    assert.deepEqual([String(got.cid), got.bytes.length], [String(blocks[1].cid), blocks[1].bytes.length])
    assert.equal((await failure(() => car.sectionAt(offsets[1] + 2)))[0], 'CarReadError') // a length varint of 1: the CID cut short
    await assert.rejects(async () => (await open(v1, 'stream')).sectionAt(offsets[0]), /needs the input as a file/)
  })

  it('a section claim over the maximum block size and the room for a CID is refused before it is read', async () => {
    const maxBlockSize = 1024
    const fits = await rawBlock(pattern(maxBlockSize, 9))
    const fitsCar = new Uint8Array(carV1([], [fits]))
    const header = fitsCar.subarray(0, fitsCar.length - section(fits).length)
    /** a section claiming `n` bytes, with that many zeros after it @param {number} n */
    const claiming = (n) => new Uint8Array(Buffer.concat([header, varint(n), new Uint8Array(n)]))
    for (const how of ways) {
      assert.deepEqual(await allBlocks(await open(fitsCar, how, { maxBlockSize })), [[String(fits.cid), maxBlockSize, header.length]])
      const [kind, message] = /** @type {string[]} */ (await failure(async () => allBlocks(await open(claiming(maxBlockSize + CID_ROOM + 1), how, { maxBlockSize }))))
      assert.equal(kind, 'CarReadError')
      assert.match(message, new RegExp(`claims ${maxBlockSize + CID_ROOM + 1} bytes, more than the maximum block size \\(1 KiB\\)`))
      // a claim of exactly the block and the room for a CID is read (and then its CID is refused)
      assert.match(String((await failure(async () => allBlocks(await open(claiming(maxBlockSize + CID_ROOM), how, { maxBlockSize }))))[1]), /does not start with a valid CID/)
    }
    assert.equal(DEFAULT_MAX_BLOCK_SIZE, 4 * 1024 * 1024)
  })
})

/** Every .js file in read/. */
const readFiles = fs.readdirSync(readDir).filter((f) => f.endsWith('.js'))

/** Code with comments and the contents of strings and template literals blanked (lines kept). @param {string} text */
function codeOnly (text) {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '))
    .replace(/\/\/.*$/gm, '')
    .replace(/'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`/g, (s) => s.replace(/[^\n]/g, ' '))
    .replace(/\/(?:[^/\\\n[]|\\.|\[(?:[^\]\\\n]|\\.)*\])+\/[a-z]*/g, (r) => r.replace(/[{}]/g, ' ')) // braces in a regular expression
}

/**
 * The functions in `text` (declarations, methods, arrow functions with a body) and how many lines
 * each spans, from its first line to the line of its closing brace.
 *
 * @param {string} text
 * @returns {{ name: string, line: number, lines: number }[]}
 */
export function functionLengths (text) {
  const lines = codeOnly(text).split('\n')
  const starts = /\bfunction\b\s*\*?\s*([\w$]*)\s*\(|^\s*(?:static\s+)?(?:async\s+)?(?:\*\s*)?([\w$]+)\s*\([^)]*\)\s*\{\s*$|([\w$]+)?\s*(?:=\s*)?(?:async\s*)?(?:\([^)]*\)|[\w$]+)\s*=>\s*\{/
  const out = []
  for (let i = 0; i < lines.length; i++) {
    const m = starts.exec(lines[i])
    if (!m) continue
    const name = m[1] ?? m[2] ?? m[3] ?? '(arrow)'
    if (['if', 'for', 'while', 'switch', 'catch', 'return'].includes(name)) continue
    let depth = 0
    let opened = false
    let j = i
    for (; j < lines.length; j++) {
      for (const ch of lines[j].slice(j === i ? m.index : 0)) {
        if (ch === '{') { depth++; opened = true } else if (ch === '}') depth--
      }
      if (opened && depth <= 0) break
    }
    out.push({ name, line: i + 1, lines: j - i + 1 })
  }
  return out
}

describe('read/: its shape', () => {
  it('the function-length scan finds a long function (so the test below can fail)', () => {
    const long = `export async function * long (a) {\n${'  a++\n'.repeat(160)}}\nclass A {\n  m (x) {\n    return x\n  }\n}\nconst f = (y) => {\n  return y\n}\n`
    const found = functionLengths(long)
    assert.deepEqual(found.map((f) => [f.name, f.lines]), [['long', 162], ['m', 3], ['f', 3]])
  })

  it('no function in read/ is longer than 150 lines', () => {
    const tooLong = []
    let longest = { name: '', file: '', lines: 0 }
    for (const file of readFiles) {
      for (const f of functionLengths(fs.readFileSync(path.join(readDir, file), 'utf8'))) {
        if (f.lines > longest.lines) longest = { name: f.name, file, lines: f.lines }
        if (f.lines > 150) tooLong.push(`${file}:${f.line} ${f.name} (${f.lines} lines)`)
      }
    }
    assert.deepEqual(tooLong, [])
    assert.ok(longest.lines > 20, `the scan found functions (longest: ${longest.file} ${longest.name}, ${longest.lines} lines)`)
  })

  it('every numeric limit in read/ is defined in limits.js', () => {
    // constants that name a format's fixed codes or sizes (from a spec), not limits this tool chose
    const formatConstants = ['V2_FIXED_HEADER', 'V2_HEADER_END', 'INDEX_SORTED', 'MULTIHASH_INDEX_SORTED', 'IDENTITY', 'SHA2_256', 'CID_TAG']
    const stray = []
    for (const file of readFiles.filter((f) => f !== 'limits.js')) {
      const code = codeOnly(fs.readFileSync(path.join(readDir, file), 'utf8'))
      for (const [, name, value] of code.matchAll(/^(?:export\s+)?const\s+([\w$]+)\s*=\s*([^\n]+)$/gm)) {
        if (/^[\d\s+*/<>()xa-fA-F._-]+$/.test(value.trim()) && !/[g-wyzG-Z]/.test(value) && !formatConstants.includes(name)) stray.push(`${file}: const ${name} = ${value.trim()}`)
      }
      // a size written in place (4096, 1 << 20) rather than named in limits.js
      for (const [literal] of code.matchAll(/\b\d{4,}\b|<<\s*\d{2}\b/g)) {
        if (!/^\d+$/.test(literal) || Number(literal) >= 1000) stray.push(`${file}: ${literal}`)
      }
    }
    assert.deepEqual(stray, [])
    const limits = fs.readFileSync(path.join(readDir, 'limits.js'), 'utf8')
    // each limit says why: a doc comment right above it
    for (const [, before, name] of limits.matchAll(/(\*\/)?\n\s*export const ([A-Z_]+) =/g)) assert.ok(before, `limits.js: ${name} has its reason above it`)
  })
})
