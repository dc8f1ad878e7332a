/* global describe, it */
// Text in the browser: here TextDecoder is a host function, and ASCII text of SHORT_TEXT + 1 to
// MEDIUM_TEXT bytes is read by lib/utf8.js's mediumAscii instead (in Node MEDIUM_TEXT is 0 and
// test/utf8.spec.js calls mediumAscii directly).
import { decode, DagCborDecodeError } from '../../index.js'
import { MEDIUM_TEXT, SHORT_TEXT } from '../../lib/utf8.js'
import { checkMediumText } from '../helpers/medium-text.js'
import { is } from './assert.js'

describe('text decoding (browser)', () => {
  it('Chromium reads ASCII text up to MEDIUM_TEXT bytes in JS', () => {
    is(MEDIUM_TEXT, 128)
  })

  it('text of every length from SHORT_TEXT to MEDIUM_TEXT + 8: ASCII in its place, non-ASCII and invalid bytes anywhere', () => {
    checkMediumText(decode, DagCborDecodeError, SHORT_TEXT, MEDIUM_TEXT + 8)
  })
})
