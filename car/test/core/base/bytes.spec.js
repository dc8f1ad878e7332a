// core/bytes.js's ownedCopy: a block's bytes copied out of its batch into memory of their own,
// by the plain JavaScript one (lib/core/base/bytes-js.js: slice) and by Node's (lib/node/bytes-node.js:
// no zero-fill first), each of which the package's `#bytes` import gives the core on its platforms.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const bytesUrl = new URL('../../../lib/core/base/bytes.js', import.meta.url).href
const jsBytesUrl = new URL('../../../lib/core/base/bytes-js.js', import.meta.url).href
const nodeBytesUrl = new URL('../../../lib/node/bytes-node.js', import.meta.url).href

// each in a process of its own, with the copy under test installed
const check = `
  const { ownedCopy, installCopy } = await import(${JSON.stringify(bytesUrl)})
  installCopy(copy)
  const batch = new Uint8Array(70000)
  for (let i = 0; i < batch.length; i++) batch[i] = (i * 31 + 7) & 0xff
  const out = []
  for (const [from, to] of [[0, 0], [3, 4], [10, 74], [100, 65636], [69000, 70000]]) {
    const own = ownedCopy(batch, from, to)
    batch.fill(0, from, to) // the batch is read into again: the copy keeps its bytes
    let same = true
    for (let i = from; i < to; i++) if (own[i - from] !== ((i * 31 + 7) & 0xff)) same = false
    batch.set(Array.from({ length: to - from }, (_, k) => ((from + k) * 31 + 7) & 0xff), from)
    out.push({ plain: Object.getPrototypeOf(own) === Uint8Array.prototype, length: own.length === to - from, owns: own.byteOffset === 0 && own.buffer.byteLength === to - from, shared: own.buffer === batch.buffer, same })
  }
  console.log(JSON.stringify(out))
`

/** @param {string} prelude */
function run (prelude) {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', prelude + check], { encoding: 'utf8', cwd: fileURLToPath(new URL('../../..', import.meta.url)) })
  assert.equal(r.status, 0, r.stderr)
  return JSON.parse(r.stdout)
}

describe('ownedCopy (core/bytes.js)', () => {
  for (const [name, copyUrl] of [['plain JavaScript (bytes-js.js)', jsBytesUrl], ["Node's (lib/node/bytes-node.js: no zero-fill)", nodeBytesUrl]]) {
    it(`${name}: a plain Uint8Array of exactly the range, in an ArrayBuffer of its own, unchanged when the batch is read into again`, () => {
      for (const r of run(`const { copy } = await import(${JSON.stringify(copyUrl)})\n`)) assert.deepEqual(r, { plain: true, length: true, owns: true, shared: false, same: true })
    })
  }
})
