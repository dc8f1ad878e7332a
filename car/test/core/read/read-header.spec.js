// The reader's header (read/header.js, read/header-decode.js): decoded by our own codec, strictly
// for the common header, else relaxed with the checks cborg makes; never by @ipld/car. openCar must
// give what @ipld/car's readHeader gives for the same bytes: the same roots and version, or the same
// refusal in the tool's words.
import assert from 'node:assert/strict'
import { readHeader } from '@ipld/car/decoder'
import { encode as cborgEncode } from 'cborg'
import * as dagCbor from '@ipld/dag-cbor'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { openCar } from '../../../lib/core/read/open-car.js'
import { varint, section } from '../../helpers/car-oracle.js'

const block = { bytes: dagCbor.encode({ a: 1 }), cid: CID.create(1, 0x71, sha256.digest(dagCbor.encode({ a: 1 }))) }

/** A CAR with the given header bytes and one block. @param {Uint8Array} header */
const carWith = (header) => new Uint8Array(Buffer.concat([varint(header.length), header, section(block)]))

/** Bytes from hex, spaces allowed. @param {string} hex */
const raw = (hex) => new Uint8Array(Buffer.from(hex.replace(/ /g, ''), 'hex'))

/** @param {Uint8Array} bytes */
async function * once (bytes) { yield bytes }

/**
 * What @ipld/car's readHeader makes of the bytes: the header, or its error message.
 *
 * @param {Uint8Array} bytes
 */
async function theirs (bytes) {
  let pos = 0
  const reader = {
    upTo: async (/** @type {number} */ n) => bytes.subarray(pos, pos + n),
    exactly: async (/** @type {number} */ n, /** @type {boolean} */ seek) => { const out = bytes.subarray(pos, pos + n); if (seek) pos += n; return out },
    seek: (/** @type {number} */ n) => { pos += n },
    get pos () { return pos }
  }
  try {
    const h = await readHeader(/** @type {any} */ (reader), 1)
    return { version: h.version, roots: /** @type {any} */ (h).roots.map(String) }
  } catch (err) {
    return { error: String(/** @type {any} */ (err).message) }
  }
}

/** What openCar makes of them. @param {Uint8Array} bytes */
async function ours (bytes) {
  try {
    const car = await openCar(once(bytes), { size: bytes.length })
    const blocks = []
    for await (const b of car.blocks()) blocks.push(String(b.cid))
    assert.deepEqual(blocks, [String(block.cid)], 'the reader is past the header: the block follows')
    return { version: car.version, roots: car.roots.map(String) }
  } catch (err) {
    return { error: String(/** @type {any} */ (err).message) }
  }
}

describe('read.js: the CAR header', () => {
  const root = block.cid
  /** @type {[string, Uint8Array][]} */
  const headers = [
    ['canonical { roots, version: 1 }', dagCbor.encode({ roots: [root], version: 1 })],
    ['canonical, no roots', dagCbor.encode({ roots: [], version: 1 })],
    ['keys out of order (not canonical)', cborgEncode({ version: 1, roots: [] }, { mapSorter: () => 0 })],
    ['an extra key', dagCbor.encode({ roots: [root], version: 1, extra: true })],
    ['roots that are not CIDs', dagCbor.encode({ roots: ['bafy'], version: 1 })],
    ['no roots', dagCbor.encode({ version: 1 })],
    ['version 3', dagCbor.encode({ roots: [root], version: 3 })],
    ['not a map', dagCbor.encode([root, 1])],
    // what our own decode of the header must take or refuse as @ipld/dag-cbor (cborg) does
    ['version 1 as a float64', raw('a2 65 726f6f7473 80 67 76657273696f6e fb 3ff0000000000000')],
    ['version 1 as a float16', raw('a2 65 726f6f7473 80 67 76657273696f6e f9 3c00')],
    ['version 1 written long (not shortest)', raw('a2 65 726f6f7473 80 67 76657273696f6e 18 01')],
    ['keys out of order, then a length written long', raw('a2 67 76657273696f6e 01 65 726f6f7473 98 00')],
    ['keys out of order, then a bad tag 42', raw('a2 67 76657273696f6e 01 65 726f6f7473 81 d8 2a 43 015500')],
    ['a long length before a bad tag 42', raw('a2 65 726f6f7473 98 01 d8 2a 43 015500 67 76657273696f6e 01')],
    ['tag 42 without its 00 prefix', raw('a2 65 726f6f7473 81 d8 2a 43 015500 67 76657273696f6e 01')],
    ['tag 42 over text', raw('a2 65 726f6f7473 81 d8 2a 63 616263 67 76657273696f6e 01')],
    ['tag 42 over text whose length is written long', raw('a2 65 726f6f7473 81 d8 2a 78 03 616263 67 76657273696f6e 01')],
    ['tag 42 over an empty byte string', raw('a2 65 726f6f7473 81 d8 2a 40 67 76657273696f6e 01')],
    ['tag 42 over a CID of version 5', raw('a2 65 726f6f7473 81 d8 2a 44 00055500 67 76657273696f6e 01')],
    ['a tag other than 42', raw('a2 65 726f6f7473 81 d8 2b 40 67 76657273696f6e 01')],
    ['an extra undefined', raw('a3 61 78 f7 65 726f6f7473 80 67 76657273696f6e 01')],
    ['version 2 with roots', dagCbor.encode({ roots: [root], version: 2 })],
    ['version -1', dagCbor.encode({ roots: [], version: -1 })],
    ['version 2^60', raw('a2 65 726f6f7473 80 67 76657273696f6e 1b 1000000000000000')],
    ['version as text', dagCbor.encode({ roots: [], version: '1' })],
    ['bytes after the map', raw('a2 65 726f6f7473 80 67 76657273696f6e 01 00')],
    ['an indefinite-length map', raw('bf 65 726f6f7473 80 67 76657273696f6e 01 ff')],
    ['the same key twice', raw('a3 65 726f6f7473 80 67 76657273696f6e 01 67 76657273696f6e 01')],
    ['a key that is not text', raw('a3 01 01 65 726f6f7473 80 67 76657273696f6e 01')],
    ['a key that is not UTF-8', raw('a3 61 ff 01 65 726f6f7473 80 67 76657273696f6e 01')],
    ['NaN in an extra key', raw('a3 61 78 f9 7e00 65 726f6f7473 80 67 76657273696f6e 01')],
    ['cut short inside', raw('a2 65 726f6f7473 80 67 76657273696f6e')]
  ]
  for (const [what, header] of headers) {
    it(`${what}: as @ipld/car's readHeader reads it`, async () => {
      const bytes = carWith(header)
      const expected = await theirs(bytes)
      const got = await ours(bytes)
      if ('error' in expected) {
        assert.ok('error' in got, `accepted a header readHeader refuses (${expected.error})`)
        // the same refusal, in the tool's words: the version it found, or what a CARv1 header is
        const shown = /Invalid CAR version: (\d+)/.exec(expected.error)
        const said = shown
          ? `: CAR version ${shown[1]}`
          : /Invalid CAR header format/.test(expected.error)
            ? ' is DAG-CBOR, but not the map { roots: [CID, ...], version: 1 } a CARv1 header is'
            : /^CBOR decode error/.test(expected.error)
              ? ' does not decode as DAG-CBOR; a CAR starts with a length varint and a DAG-CBOR map { roots, version }'
              : `: ${expected.error}`
        // version 2 is one this tool reads: refused only for not being the CARv2 pragma
        const why = !shown ? '' : shown[1] === '2' ? ', but not the CARv2 pragma (the 11 bytes 0aa16776657273696f6e02, { version: 2 } alone, that start every CARv2)' : '; this tool reads versions 1 and 2'
        assert.equal(got.error, `not a CAR file: bad header (the header at byte offset 0${said}${why})`)
      } else {
        assert.deepEqual(got, expected)
      }
    })
  }
})

describe('the CARv2 fixed header: the in-memory reader and the streaming one give one answer', () => {
  // CarBufferReader and CarReader.fromBytes read the header in memory (read/in-memory.js); every
  // other path streams it (read/header.js). The oracle found the in-memory one placing its errors at
  // byte 0 and not checking the index offset at all.
  const v1 = new Uint8Array(Buffer.concat([varint(dagCbor.encode({ roots: [block.cid], version: 1 }).length), dagCbor.encode({ roots: [block.cid], version: 1 }), section(block)]))
  /** @param {{ dataOffset?: number, dataSize?: number, indexOffset?: number }} fields */
  const carV2With = ({ dataOffset = 51, dataSize = v1.length, indexOffset = 0 }) => {
    const fixed = Buffer.alloc(40)
    fixed.writeBigUInt64LE(BigInt(dataOffset), 16)
    fixed.writeBigUInt64LE(BigInt(dataSize), 24)
    fixed.writeBigUInt64LE(BigInt(indexOffset), 32)
    return new Uint8Array(Buffer.concat([raw('0a a1 67 76657273696f6e 02'), fixed, v1]))
  }
  const cases = [
    ['an index offset inside the payload', carV2With({ indexOffset: 60 })],
    ['an index offset past the end', carV2With({ indexOffset: 51 + v1.length + 10 })],
    ['a data offset inside the fixed header', carV2With({ dataOffset: 20 })],
    ['a data size of 0', carV2With({ dataSize: 0 })]
  ]
  for (const [what, bytes] of /** @type {[string, Uint8Array][]} */ (cases)) {
    it(`${what}: CarBufferReader refuses it at the offset and with the words the streaming reader gives`, async () => {
      const { CarBufferReader } = await import('../../../lib/core/index.js')
      const streamed = await ours(bytes)
      assert.ok('error' in streamed, 'the streaming reader accepted it')
      assert.throws(() => CarBufferReader.fromBytes(bytes), (/** @type {any} */ e) => e.offset === 11 && e.message === streamed.error)
    })
  }
})
