// Where dag-cbor-car's verdict may differ from @ipld/car's (with multiformats' hashers) and from
// go-car's `car verify`: one list of classes, each with its reason, the same as the table in
// docs/oracle.md (test/oracle/oracle.spec.js holds the two equal). compare.js consults only this.
// A class is recognised from what the CAR holds and what each side said, never from a single input.
import { CID } from 'multiformats/cid'
import { base58btc } from 'multiformats/bases/base58'

const DIGEST_BYTES = /** @type {Record<number, number>} */ ({ 0x12: 32, 0xb220: 32 })

/** the shortest truncated digest the tool counts as checked (lib/core/read/limits.js MIN_TRUNCATED_DIGEST) */
const MIN_TRUNCATED_DIGEST = 20

/** A CID whose sha2-256 or blake2b-256 digest is truncated below MIN_TRUNCATED_DIGEST bytes. @param {string} cid */
function shortTruncated (cid) {
  const { code, digest } = parsed(cid).multihash
  return DIGEST_BYTES[code] !== undefined && digest.length < MIN_TRUNCATED_DIGEST
}

/**
 * A block's CID from its string, as the paths give it: base32 for a CIDv1, bare base58btc for a
 * CIDv0, whose text need not start with Qm (multiformats' CID.parse expects it to).
 *
 * @param {string} cid
 */
function parsed (cid) {
  try {
    return CID.parse(cid)
  } catch {
    return CID.decode(base58btc.baseDecode(cid))
  }
}

/**
 * @typedef {import('./paths.js').Outcome} Outcome
 * @typedef {{ name: string, against: '@ipld/car' | 'go-car', ours: string, theirs: string, reason: string }} DifferenceClass
 */

/** @type {DifferenceClass[]} */
export const DIFFERENCES = [
  {
    name: 'short-truncated-digest',
    against: '@ipld/car',
    ours: 'a CID whose sha2-256 or blake2b-256 digest is truncated below 20 bytes is unverified, even when its bytes hash to a digest that starts with it (the readers throw a CarBlockError of kind unverified unless allowUnverified; verify fails); a truncated digest of 20 bytes or more is checked as the prefix of the block\'s',
    theirs: '@ipld/car checks no hash; the independent re-hash accepts any truncated digest that is the prefix of the block\'s',
    reason: 'the multihash spec allows a truncated digest, and go-cid writes them, so a prefix that matches is the block\'s CID; but a few bytes vouch for nothing (anyone can find other bytes to match them): IPFS\'s CID check (go-verifcid) refuses digests under 20 bytes, and the tool will not say "checked" of them'
  },
  {
    name: 'short-truncated-digest',
    against: 'go-car',
    ours: 'fail: unverified (digest truncated below 20 bytes)',
    theirs: 'ok: go-cid\'s Prefix.Sum truncates the digest to the CID\'s length and compares',
    reason: 'as above'
  },
  {
    name: 'carv2-size-claims',
    against: '@ipld/car',
    ours: 'unreadable: a CARv2 whose header puts its data payload or its index past the end of the input, or its index inside the payload, or whose data size ends the payload inside its header (or claims a size no input can have)',
    theirs: 'reads the sections that are there (the data size and the index offset are not checked against the input)',
    reason: 'the header\'s claim is false, so the CAR is corrupt (truncated, or a flipped size); the tool says so at the header rather than hand out part of it as the whole'
  },
  {
    name: 'dag-cbor-strictness',
    against: 'go-car',
    ours: 'fail: a DAG-CBOR block that is not strict canonical DAG-CBOR, or a block that is not what its codec says',
    theirs: 'ok: car verify decodes no block',
    reason: 'the tool checks DAG-CBOR by the spec\'s strict rules (its purpose); go-car checks framing, hashes, roots and the index only'
  },
  {
    name: 'unknown-codec',
    against: 'go-car',
    ours: 'fail: a block whose CID names a codec the tool does not know (it cannot check the block)',
    theirs: 'ok: car verify decodes no block',
    reason: 'an unchecked block is reported, not passed silently'
  },
  {
    name: 'index-offsets',
    against: 'go-car',
    ours: 'fail: a CARv2 index record whose offset is not where its block\'s section starts, or records out of order',
    theirs: 'ok: car verify only looks each CID up in the index (any offset will do; a binary search may still find it)',
    reason: 'an index that sends a reader to the wrong place is corrupt; the tool checks each record against the payload'
  },
  {
    name: 'header-strictness',
    against: 'go-car',
    ours: 'unreadable: a header that is not strict DAG-CBOR (a tag other than 42 on a root, an integer in more bytes than needed)',
    theirs: 'ok: go-car\'s header decoder (refmt) reads such a header',
    reason: 'the CAR spec says the header is DAG-CBOR; @ipld/car refuses these headers too'
  },
  {
    name: 'header-strictness',
    against: '@ipld/car',
    ours: 'unreadable: a header whose root is not a valid CID (an explicit version 0 before a codec), or that breaks another strict DAG-CBOR rule',
    theirs: 'reads it (multiformats decodes the root)',
    reason: 'the CAR spec says the header is DAG-CBOR, whose tag 42 holds one valid CID; a header that is not is corrupt'
  },
  {
    name: 'cut-after-length',
    against: 'go-car',
    ours: 'unreadable: a CAR that ends right after a section\'s length varint (the section claims bytes, none are left)',
    theirs: 'ok: go-car\'s section reader takes the end of input while reading the CID as the CAR\'s end',
    reason: 'the section\'s length says bytes follow; a CAR cut there is truncated, and saying ok would pass a cut file'
  },
  {
    name: 'carv2-characteristics',
    against: 'go-car',
    ours: 'fail: a CARv2 whose characteristics set a bit other than the first (fully indexed)',
    theirs: 'ok: car verify does not look at the characteristics',
    reason: 'the CARv2 spec defines only that bit; a set bit no reader knows is reported (car-v2), as a header field out of spec, rather than passed'
  },
  {
    name: 'carv2-no-index',
    against: 'go-car',
    ours: 'ok: a CARv2 with no index (index offset 0)',
    theirs: 'error: "index offset overlaps with data ... index offset of 0", or with padding before the payload "header claims no index, but extra bytes in file beyond data size"',
    reason: 'go-car\'s car verify (cmd/car/lib/verify.go) compares the index offset with the payload\'s end without exempting 0, which means no index, and measures that end as 51 + data size, not data offset + data size; the CARv2 spec makes the index optional and allows padding'
  }
]

/** our message for a header that is not strict DAG-CBOR: it does not decode, or breaks a rule */
const HEADER_NOT_DAG_CBOR = /the header at byte offset \d+( does not decode as DAG-CBOR|: DAG-CBOR decode .*\[rule: )/

/**
 * The tool's policy on a block, from the independent re-hash: a digest truncated below 20 bytes
 * whose prefix matches (or that is empty) is unverified (class short-truncated-digest).
 *
 * @param {string} cid @param {'ok' | 'mismatch' | 'unverified' | undefined} rehashed
 */
export function ourHashVerdict (cid, rehashed) {
  if (!shortTruncated(cid)) return rehashed
  return rehashed === 'ok' || parsed(cid).multihash.digest.length === 0 ? 'unverified' : rehashed
}

/**
 * The class a difference from @ipld/car belongs to, or undefined (a disagreement).
 *
 * @param {Uint8Array} bytes @param {Outcome} ours @param {Outcome} theirs @param {Outcome} indexer
 */
export function classifyIpld (bytes, ours, theirs, indexer) {
  if (ours.errorKind === 'unverified' && theirs.verdict === 'ok') {
    const block = indexer.blocks.find((b) => b.offset === ours.errorOffset)
    if (block && shortTruncated(block.cid) && ourHashVerdict(block.cid, block.hash) === 'unverified') return 'short-truncated-digest'
  }
  if (ours.errorKind === 'read' && theirs.verdict === 'ok' && HEADER_NOT_DAG_CBOR.test(ours.message ?? '')) return 'header-strictness'
  if (ours.errorKind === 'read' && theirs.verdict === 'ok' && /CARv2 (data payload|data size|data offset|index offset).*(past the end of the (input|file)|impossibly large)|CARv2 index offset \d+ points inside the data payload|CARv2 payload header at byte \d+ claims \d+ bytes, but only \d+ are left/.test(ours.message ?? '')) return 'carv2-size-claims'
  return undefined
}

/**
 * The class a difference from go-car belongs to, or undefined.
 *
 * @param {Uint8Array} bytes @param {Outcome} ours @param {{ verdict: string, message: string }} theirs
 */
export function classifyGoCar (bytes, ours, theirs) {
  const problems = ours.summary?.problems ?? []
  if (ours.full === 'fail' && theirs.verdict === 'ok' && problems.length) {
    /** @type {Set<string>} */ const classes = new Set()
    for (const p of problems) {
      if (p.kind === 'non-canonical' || p.kind === 'invalid') classes.add('dag-cbor-strictness')
      else if (p.kind === 'unknown-codec') classes.add('unknown-codec')
      else if (p.kind === 'unverified' && shortTruncated(p.cid)) classes.add('short-truncated-digest')
      else if (p.kind === 'index' && /offset|out of order/.test(p.message)) classes.add('index-offsets')
      else if (p.kind === 'car-v2' && /characteristics/.test(p.message)) classes.add('carv2-characteristics')
      else return undefined
    }
    return [...classes].sort().join('+')
  }
  if (ours.full === undefined && ours.errorKind === 'read' && theirs.verdict === 'ok' && /the section at byte offset \d+ claims \d+ bytes, but only 0 are left/.test(ours.message ?? '') &&
    ours.errorOffset !== undefined && bytes.length === ours.errorOffset + lengthVarintSize(bytes, ours.errorOffset)) return 'cut-after-length'
  if (ours.full === undefined && ours.errorKind === 'read' && theirs.verdict === 'ok' && HEADER_NOT_DAG_CBOR.test(ours.message ?? '')) return 'header-strictness'
  if (ours.full === 'ok' && theirs.verdict === 'error') {
    if (noIndex(bytes) && (/index offset of 0$/.test(theirs.message) ||
      (/header claims no index, but extra bytes in file beyond data size/.test(theirs.message) && paddedNoIndex(bytes)))) return 'carv2-no-index'
  }
  return undefined
}

/** The size of the varint at `at` (0 if it does not end in the bytes). @param {Uint8Array} bytes @param {number} at */
function lengthVarintSize (bytes, at) {
  for (let i = at; i < bytes.length && i < at + 10; i++) if (bytes[i] < 0x80) return i - at + 1
  return 0
}

/** A CARv2 whose header gives no index. @param {Uint8Array} bytes */
function noIndex (bytes) {
  if (bytes.length < 51 || bytes[0] !== 0x0a || bytes[10] !== 0x02) return false
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getBigUint64(43, true) === 0n
}

/** A CARv2 with padding before its payload, no index, and its payload running to the end. @param {Uint8Array} bytes */
function paddedNoIndex (bytes) {
  if (bytes.length < 51 || bytes[0] !== 0x0a || bytes[10] !== 0x02) return false
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const dataOffset = Number(view.getBigUint64(27, true))
  const dataSize = Number(view.getBigUint64(35, true))
  const indexOffset = Number(view.getBigUint64(43, true))
  return dataOffset > 51 && indexOffset === 0 && dataOffset + dataSize === bytes.length
}
