// What lib/node/library.bundle.cjs holds (scripts/build-library.js): the Node entry's API, and the
// core's under `core`, so that 'dag-cbor-car' and 'dag-cbor-car/core' in one Node process are one
// copy of the core (its error classes, its installed hashers), as they were before the bundle.
export * from './index.js'
export * as core from '../core/index.js'
