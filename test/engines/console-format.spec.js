// The smoke page's reporter lines read as mocha's in Node: formatConsole fills placeholders as util.format does.
import assert from 'node:assert/strict'
import util from 'node:util'
import { formatConsole } from './console-format.js'

describe('engines: a page\'s console lines formatted as util.format does (formatConsole)', () => {
  const cases = [
    // what mocha's spec reporter logs
    ['  %d passing (%s)', 162, '2s'], ['  %d failing', 1], ['  %d pending', 0],
    ['%s%s', '', 'a suite'], ['  %s', 'a test'], ['    ✔ %s (%dms)', 'a slow test', 41],
    ['  %s) %s:\n%s', 1, 'a title', '     AssertionError: wrong'], [],
    // the rest of what it claims to do
    ['%d%% done', 5], ['%s', 'a', 'b'], ['no placeholders', 1, 'x'], ['%s and %s', 'one'],
    ['%i', 3.9], ['%f', '1.5'], ['%j', 'x'], ['%d', 12n], [1, 2], ['']
  ]
  for (const args of cases) {
    it(JSON.stringify(args, (_, v) => typeof v === 'bigint' ? `${v}n` : v), () => {
      assert.equal(formatConsole(...args), util.format(...args))
    })
  }

  it('stands alone: its source text works as a page\'s function', () => {
    // eslint-disable-next-line no-new-func
    const inlined = new Function(`return (${formatConsole.toString()})`)()
    assert.equal(inlined('  %d passing (%s)', 3, '1s'), '  3 passing (1s)')
  })
})
