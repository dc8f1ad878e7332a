// base/: the helpers every stage uses. Rows of input and what must come out.
import assert from 'node:assert/strict'
import { varint } from 'multiformats'
import { uvarint, varintEnd } from '../../../lib/core/base/varint.js'
import { toHex, toBase64, fromBase64, sameBytes, firstDifference, indexOfPair, ownedCopy } from '../../../lib/core/base/bytes.js'
import { ToolError, errorLine, aboutInput } from '../../../lib/core/base/errors.js'

const hex = (/** @type {string} */ h) => Uint8Array.from(h.match(/../g) ?? [], (b) => parseInt(b, 16))

describe('core/base', () => {
  describe('uvarint: up to 4 bytes, shortest form, else -1', () => {
    const rows = [
      { data: '00', value: 0, end: 1 },
      { data: '7f', value: 127, end: 1 },
      { data: '8001', value: 128, end: 2 },
      { data: 'ff7f', value: 16383, end: 2 },
      { data: 'ffffff7f', value: 2 ** 28 - 1, end: 4 },
      { data: 'ffffffff01', value: -1, end: 4 }, // a fifth byte: left to multiformats
      { data: '8000', value: -1, end: 2 }, // not shortest form
      { data: '80', value: -1, end: 1 } // runs off the end
    ]
    for (const { data, value, end } of rows) {
      it(`${data} → ${value}`, () => {
        assert.equal(uvarint(hex(data), 0, data.length / 2), value)
        assert.equal(varintEnd, end)
        if (value >= 0) assert.deepEqual(varint.decode(hex(data)), [value, end]) // the oracle agrees
      })
    }
  })

  describe('bytes', () => {
    const rows = [
      { data: '', hex: '', base64: '' },
      { data: '00ff10', hex: '00ff10', base64: 'AP8Q' },
      { data: '6869', hex: '6869', base64: 'aGk=' },
      { data: 'fbff', hex: 'fbff', base64: '+/8=' }
    ]
    for (const row of rows) {
      it(`hex and base64 of ${row.data || 'nothing'}, and back`, () => {
        const bytes = hex(row.data)
        assert.equal(toHex(bytes), row.hex)
        assert.equal(toBase64(bytes), row.base64)
        assert.equal(toBase64(bytes), Buffer.from(bytes).toString('base64'))
        assert.deepEqual(fromBase64(row.base64), bytes)
      })
    }
    it('sameBytes and firstDifference', () => {
      assert.equal(sameBytes(hex('0102'), hex('0102')), true)
      assert.equal(sameBytes(hex('0102'), hex('0103')), false)
      assert.equal(sameBytes(hex('0102'), hex('010200')), false)
      assert.equal(firstDifference(hex('010203'), hex('010303')), 1)
      assert.equal(firstDifference(hex('0102'), hex('0102')), 2) // equal: the common length
      assert.equal(firstDifference(hex('0102'), hex('010203')), 2)
    })
    it('indexOfPair finds two bytes in a row', () => {
      assert.equal(indexOfPair(hex('00d82a5800d82a'), 0xd8, 0x2a), 1)
      assert.equal(indexOfPair(hex('00d82a5800d82a'), 0xd8, 0x2a, 2), 5)
      assert.equal(indexOfPair(hex('00d8'), 0xd8, 0x2a), -1)
    })
    it('ownedCopy owns exactly its bytes', () => {
      const big = new Uint8Array(1000).fill(7)
      const copy = ownedCopy(big, 10, 20)
      assert.equal(copy.length, 10)
      assert.equal(copy.buffer.byteLength, 10)
      big[15] = 1
      assert.equal(copy[5], 7)
    })
  })

  describe('errors', () => {
    it('a ToolError is one line, naming its input once', () => {
      const err = aboutInput(new ToolError('not a CAR file'), 'x.car')
      assert.match(errorLine(err), /x\.car/)
      assert.ok(!errorLine(err).includes('\n'))
    })
  })
})
