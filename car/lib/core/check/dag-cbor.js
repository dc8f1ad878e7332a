// Own file: worker threads import it by its URL (lib/node/run.js defaultCodecUrl).
// The codec the tool checks DAG-CBOR blocks with: dag-cbor-fast, with `validate` (the strict check
// that builds no value) from its own entry point, which the codec keeps apart from its main one.
export * from 'dag-cbor-fast'
export { validate } from 'dag-cbor-fast/validate'
