// Own file: worker threads import it by its URL (lib/node/run.js defaultCodecUrl).
// The codec the tool checks DAG-CBOR blocks with: dag-cbor-fast's `validate` (the strict check that
// builds no value) and `decode` from their own entry points, and its `encode`, which only a
// non-canonical block or a rewrite needs, from #modules-now: in Node loaded at its first call, so
// that a verify of canonical blocks does not load the encoder's modules.
import { dagCbor } from '#modules-now'

export { validate } from 'dag-cbor-fast/validate'
export { decode } from 'dag-cbor-fast/decode'

// a multiformats BlockCodec, as the codec's main entry is: its name and multicodec code
export const name = 'dag-cbor'
export const code = 0x71

/** @type {typeof import('dag-cbor-fast').encode} */
export const encode = (value, options) => dagCbor().encode(value, options)
