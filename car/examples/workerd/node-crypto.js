// worker.js with workerd's node:crypto doing SHA-256: native, where the core's own fallback there
// is pure JS (workerd forbids compiling the WebAssembly it would use elsewhere). blake2b-256 stays
// pure JS: node:crypto has no blake2b-256. Needs workerd's nodejs_compat (on by default from
// compatibility date 2026-08-04, as config.capnp's).
import { createHash } from 'node:crypto'
import { installHashers } from 'dag-cbor-car'
import worker from './worker.js'

installHashers({ sha256: (bytes) => createHash('sha256').update(bytes).digest(), backend: 'node:crypto' })

export default worker
