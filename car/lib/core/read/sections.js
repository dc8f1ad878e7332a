// One section at a time: the CID a section starts with (checked to be the file's own bytes; a plain
// CIDv1 built straight from the bytes, plainCid, for the readers' loops), one
// section read by position (readBlockAt), and the walk of sections read again from a file whose
// sections were checked before (write/relink.js).
import { CID } from 'multiformats/cid'
import { Digest } from 'multiformats/hashes/digest'
import { uvarint, varintEnd } from '../base/varint.js'
import { CarReadError, describe } from './read-errors.js'
import { readVarint } from './byte-reader.js'
import { CID_ROOM } from './limits.js'

/**
 * The CID a section starts with, and the block's bytes after it, accepted only when the CID is
 * byte for byte what the section holds: multiformats' reader takes a version byte of 0
 * (`00 70 12 20 ...`) for a CIDv0, dropping the prefix (or the codec, `00 71 ...`) from the CID
 * it hands back, and reads varints written longer than needed, so its CID would not be the file's.
 * A CIDv0 is a bare sha2-256 multihash (`12 20` and 32 bytes), with no version byte.
 *
 * @param {Uint8Array} section the section's bytes after its length varint
 * @returns {[CID, Uint8Array]}
 * @throws {Error} why the CID is not one (for sectionError's detail)
 */
export function decodeSectionCid (section) {
  let specs
  try {
    specs = CID.inspectBytes(section)
  } catch (err) {
    const version = /Invalid CID version (\d+)/.exec(describe(err))
    throw new Error(version ? `its version is ${version[1]}: a CID is version 1 (01 ...) or a bare sha2-256 multihash (12 20 ..., a CIDv0)` : `its varints cannot be read (${describe(err)})`)
  }
  if (specs.size > section.length) throw new Error(`its multihash claims a ${specs.digestSize}-byte digest, which runs past the end of the ${section.length}-byte section`)
  let cid, rest
  try {
    [cid, rest] = CID.decodeFirst(section)
  } catch (err) {
    throw new Error(`multiformats cannot make a CID of it (${describe(err)})`)
  }
  const length = section.length - rest.length
  const own = cid.bytes
  let same = own.length === length
  for (let i = 0; same && i < length; i++) same = own[i] === section[i]
  if (same) return [cid, rest]
  if (section[0] === 0) throw new Error(`its version byte is 00, which no CID has: a CIDv0 is a bare sha2-256 multihash (12 20 ...) with no version byte; multiformats would read these ${length} bytes as the ${own.length}-byte ${cid}`)
  throw new Error(`its ${length} bytes are not the CID's one valid form (a varint written longer than needed); multiformats would read them as the ${own.length}-byte ${cid}`)
}

/**
 * A CIDv1 at bytes[from, to) whose varints are short and whose digest fits (its block starts where
 * its bytes end). null for anything else (CIDv0, long
 * varints, a digest past the section), which decodeSectionCid reads or rejects with its message.
 *
 * @param {Uint8Array} bytes
 * @param {number} from
 * @param {number} to
 * @param {boolean} copy the CID's bytes copied into an array of their own, not views of `bytes`
 */
export function plainCid (bytes, from, to, copy) {
  if (bytes[from] !== 1) return null
  const code = uvarint(bytes, from + 1, to)
  const mhStart = varintEnd
  const hashCode = code < 0 ? -1 : uvarint(bytes, mhStart, to)
  const size = hashCode < 0 ? -1 : uvarint(bytes, varintEnd, to)
  const digestStart = varintEnd
  const cidEnd = digestStart + size
  if (size < 0 || cidEnd > to) return null
  // copied: three small arrays of their own (heapCid, below); or, where the constructors are not
  // as heapCid expects, the CID's own bytes with its multihash and digest views of them
  if (copy && HEAP_CIDS) return heapCid(code, hashCode, size, bytes.slice(from, cidEnd), bytes.slice(mhStart, cidEnd), bytes.slice(digestStart, cidEnd))
  const own = copy ? bytes.slice(from, cidEnd) : bytes
  const at = copy ? from : 0
  return new CID(1, code, new Digest(hashCode, size, own.subarray(digestStart - at, cidEnd - at), own.subarray(mhStart - at, cidEnd - at)), copy ? own : bytes.subarray(from, cidEnd))
}

// A copied CID, its multihash and its digest are three small arrays of their own, none a view of
// another: V8 keeps arrays this small in its heap, and a view of one (or a look at its .buffer)
// makes V8 move its bytes out into memory of their own, which the collector then frees, one
// allocation per block. multiformats' constructors look at each array's .buffer (to check it is
// not shared; these never are), so the CID and its Digest are built here as those constructors
// build them: the same fields, in the same order, on the same prototypes, when a CID they build
// has exactly these fields (checked once, here); otherwise through the constructors.
// The check also runs a CID built here through the methods scripts call: a private field or a
// changed method in a later multiformats would show there, and the constructors are used instead.
const probe = new CID(1, 0x55, new Digest(0, 0, new Uint8Array(0), new Uint8Array(2)), new Uint8Array([1, 0x55, 0, 0]))
/** whether copied CIDs are built by heapCid (exported for the tests: the installed multiformats passes the check) */
export const HEAP_CIDS = Object.keys(probe).join() === 'code,version,multihash,bytes,/' && Object.keys(probe.multihash).join() === 'code,size,digest,bytes' && builtAsConstructed(probe)

/**
 * @param {CID} probe a CID the constructors made
 * @returns {boolean} whether heapCid's copy of it behaves as it does
 */
function builtAsConstructed (probe) {
  try {
    const built = heapCid(probe.code, probe.multihash.code, probe.multihash.size, probe.bytes.slice(), probe.multihash.bytes.slice(), probe.multihash.digest.slice())
    return built.toString() === probe.toString() && built.equals(probe) && probe.equals(built) && CID.asCID(built) === built && JSON.stringify(built) === JSON.stringify(probe)
  } catch {
    return false
  }
}

/**
 * @param {number} code
 * @param {number} hashCode
 * @param {number} size
 * @param {Uint8Array} bytes the CID's
 * @param {Uint8Array} multihash
 * @param {Uint8Array} digest
 * @returns {CID}
 */
function heapCid (code, hashCode, size, bytes, multihash, digest) {
  const d = Object.create(Digest.prototype)
  d.code = hashCode
  d.size = size
  d.digest = digest
  d.bytes = multihash
  const cid = Object.create(CID.prototype)
  cid.code = code
  cid.version = 1
  cid.multihash = d
  cid.bytes = bytes
  cid['/'] = bytes
  return cid
}

/**
 * The section that starts at `offset` in a file read by position, its claim checked before it is
 * read: its CID, and its block's bytes, each in an array of its own (a read of bytes or a Blob may
 * be a view of the caller's whole input, and a Buffer's slice() is a view too: copied through a
 * plain Uint8Array).
 *
 * @param {{ readRange: (start: number, length: number) => Promise<Uint8Array> }} file
 * @param {number} offset inside the file
 * @param {{ size: number, maxBlockSize: number }} limits size: the file's (Infinity when not known)
 * @returns {Promise<{ cid: CID, bytes: Uint8Array }>}
 */
export async function readSectionAt (file, offset, { size, maxBlockSize }) {
  const head = await file.readRange(offset, Math.min(10, size - offset))
  const varint = readVarint(head)
  if (!varint || varint.value === 0) throw new CarReadError(`no CAR section starts at byte offset ${offset} (no valid length varint there)`, { blocks: 0, offset })
  if (varint.value > maxBlockSize + CID_ROOM || offset + varint.size + varint.value > size) throw new CarReadError(`the section at byte offset ${offset} claims ${varint.value} bytes, more than the maximum block size or what is left of the input`, { blocks: 0, offset })
  const section = await file.readRange(offset + varint.size, varint.value)
  try {
    const [, bytes] = decodeSectionCid(section)
    const plain = new Uint8Array(section.buffer, section.byteOffset, section.byteLength)
    const cidLength = section.length - bytes.length
    return { cid: CID.decode(plain.slice(0, cidLength)), bytes: plain.slice(cidLength) }
  } catch (err) {
    throw new CarReadError(`the section at byte offset ${offset} does not start with a valid CID (${describe(err)})`, { blocks: 0, offset })
  }
}

/**
 * Walk the sections of a byte range read again from a file whose sections were checked in the first
 * pass (for --canonicalize's later passes), making no objects: `visit` gets the CID's codec and
 * offsets in `range`: where the CID starts, where the block's bytes start, where the section ends.
 * `base` is the range's offset in the file (for messages).
 *
 * @param {Uint8Array} range
 * @param {number} base
 * @param {(codec: number, cidStart: number, bytesStart: number, end: number) => void} visit
 */
export function scanSections (range, base, visit) {
  let at = 0
  let p = 0
  const changed = () => new CarReadError(`the input changed between passes: no valid section at byte offset ${base + at}`, { blocks: 0, offset: base + at })
  /** the varint at p, which it moves past */
  const next = () => {
    let value = 0
    for (let i = 0; i < 9 && p < range.length; i++) {
      const b = range[p++]
      value += (b & 0x7f) * 2 ** (7 * i)
      if (b < 0x80) return value
    }
    throw changed()
  }
  while (at < range.length) {
    p = at
    const length = next()
    const cidStart = p
    const end = cidStart + length
    if (end > range.length) throw changed()
    let codec
    if (range[p] === 0x12 && range[p + 1] === 0x20) { // CIDv0: a bare sha2-256 multihash, dag-pb
      codec = 0x70
      p += 34
    } else {
      next() // version
      codec = next()
      next() // multihash code
      const digestLength = next()
      p += digestLength
    }
    if (p > end) throw changed()
    visit(codec, cidStart, p, end)
    at = end
  }
}
