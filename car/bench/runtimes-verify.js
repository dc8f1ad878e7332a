// One timed verifyCar, in whichever runtime runs this file (Node, Deno, Bun), for runtimes.js:
//   <runtime> runtimes-verify.js FILE core|node
// core: the platform-neutral core (car/lib/core/index.js), as browsers, Deno, Bun and workerd run it;
// node: the package as the runtime resolves `dag-cbor-car` (Node, Deno, Bun: its Node entry, node:crypto's sha256). The file is read into memory first and
// handed over as a stream of 1 MiB chunks, so the time is the checks', not the runtime's file
// reading. Prints one JSON line: seconds, bytes, result, hash backends.
import fs from 'node:fs'
import process from 'node:process'

const [file, entry] = process.argv.slice(2)
const lib = /** @type {any} */ (entry === 'node' ? await import('dag-cbor-car') : await import('../lib/core/index.js'))
const bytes = new Uint8Array(fs.readFileSync(file))
const CHUNK = 1 << 20
let at = 0
const stream = new ReadableStream({
  pull (controller) {
    if (at >= bytes.length) return controller.close()
    controller.enqueue(bytes.subarray(at, at + CHUNK))
    at += CHUNK
  }
})
const t0 = performance.now()
const summary = await lib.verifyCar(stream)
const seconds = (performance.now() - t0) / 1000
console.log(JSON.stringify({ seconds, bytes: bytes.length, result: summary.result, blocks: summary.blocks, backends: lib.hashBackends() }))
