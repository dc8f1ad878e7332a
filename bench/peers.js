// The codecs under comparison, each reduced to encode(value) -> bytes and decode(bytes) -> value
// on the IPLD data model (multiformats CID, Uint8Array). Conversions a peer needs to do that same
// job (e.g. @atcute/cbor's wrappers) happen inside these functions, i.e. inside the timed region.
import { CID } from 'multiformats/cid'
import * as ipld from '@ipld/dag-cbor'
import * as dagJson from '@ipld/dag-json'
import { Encoder, Decoder, addExtension } from 'cbor-x'
import * as atcute from '@atcute/cbor'

/** Import the codec under test. `--ref-as-ours` (scaffolding only) stands @ipld/dag-cbor in for it. */
export async function loadOurs () {
  if (process.argv.includes('--ref-as-ours')) return { mod: ipld, path: '@ipld/dag-cbor (stand-in)' }
  return { mod: await import('../index.js'), path: '../index.js' }
}

// --- cbor-x: as close to DAG-CBOR as its options allow ---------------------------------------
// It cannot sort map keys and writes integers beyond 32 bits as float64 (the byte check reports it).
addExtension({
  Class: CID,
  tag: 42,
  encode (cid, encodeFn) {
    const b = new Uint8Array(cid.bytes.length + 1) // 0x00 multibase-identity prefix
    b.set(cid.bytes, 1)
    encodeFn(b)
  },
  decode (bytes) {
    return CID.decode(bytes.subarray(1))
  }
})
const cborxOpts = {
  useRecords: false,
  mapsAsObjects: true,
  tagUint8Array: false,
  variableMapSize: true, // shortest map length headers
  pack: false,
  useFloat32: 0, // always float64
  useTimestamps: false,
  largeBigIntToFloat: false,
  int64AsNumber: true // 64-bit ints decode to Number (like @ipld/dag-cbor within the safe range)
}
const cborxEnc = new Encoder(cborxOpts)
const cborxDec = new Decoder(cborxOpts)

// --- @atcute/cbor: convert to/from its CidLinkWrapper / BytesWrapper --------------------------
const { CidLinkWrapper, BytesWrapper } = atcute
function toAtcute (v) {
  if (v === null || typeof v !== 'object') return v
  if (Array.isArray(v)) {
    const out = new Array(v.length)
    for (let i = 0; i < v.length; i++) out[i] = toAtcute(v[i])
    return out
  }
  if (v instanceof Uint8Array) return new BytesWrapper(v)
  if (v['/'] !== undefined && v['/'] === v.bytes) return new CidLinkWrapper(v.bytes) // a multiformats CID
  const out = {}
  for (const k in v) out[k] = toAtcute(v[k])
  return out
}
function fromAtcute (v) {
  if (v === null || typeof v !== 'object') return v
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) v[i] = fromAtcute(v[i])
    return v
  }
  // as a BlockCodec: owned copies, since @atcute/cbor's byte strings and CID bytes are views of
  // the input (which would keep every block alive as long as anything decoded from it)
  if (v instanceof CidLinkWrapper) return CID.decode(v.bytes.slice())
  if (v instanceof BytesWrapper) return v.buf.slice()
  for (const k in v) v[k] = fromAtcute(v[k])
  return v
}

// --- JSON ceiling: JSON.stringify / JSON.parse on the DAG-JSON form ---------------------------
/** Returns the plain-JSON form of a value (what JSON.stringify takes / JSON.parse gives). */
export function dagJsonForm (value) {
  const text = new TextDecoder().decode(dagJson.encode(value))
  return { text, plain: JSON.parse(text) }
}

/**
 * @param {any} ours the imported codec module
 * @returns {Array<{name, encode, decode, ceiling?, views?}>} peers in table order; index 0 is the baseline
 */
export function makePeers (ours) {
  return [
    { name: '@ipld/dag-cbor', encode: (v) => ipld.encode(v), decode: (b) => ipld.decode(b) },
    { name: 'cbor-x', encode: (v) => cborxEnc.encode(v), decode: (b) => cborxDec.decode(b), views: true },
    { name: '@atcute/cbor', encode: (v) => atcute.encode(toAtcute(v)), decode: (b) => fromAtcute(atcute.decode(b)) },
    // Ceiling: works on a different input (the DAG-JSON text / its parsed form), see run.js.
    { name: 'JSON (ceiling)', ceiling: true, encode: (plain) => JSON.stringify(plain), decode: (text) => JSON.parse(text) },
    { name: 'ours', ours: true, encode: (v) => ours.encode(v), decode: (b) => ours.decode(b) }
  ]
}
