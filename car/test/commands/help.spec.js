// dag-cbor-car help: every command the dispatcher knows is listed; help <command> is its --help.
import assert from 'node:assert/strict'
import { tool } from './helpers.js'
import { COMMANDS } from '../../lib/commands/index.js'

describe('dag-cbor-car help', function () {
  this.timeout(60000)

  it('lists every command with a line saying what it does; help ls is ls --help; help x is exit 2', () => {
    const r = tool(['help'])
    assert.equal(r.code, 0)
    for (const name of Object.keys(COMMANDS)) assert.match(r.stdout, new RegExp(`^  ${name} +\\S.{10,}$`, 'm'), name)
    const ls = tool(['help', 'ls'])
    assert.equal(ls.code, 0)
    assert.equal(ls.stdout, tool(['ls', '--help']).stdout)
    assert.match(ls.stdout, /^usage: dag-cbor-car ls /)
    const bad = tool(['help', 'frobnicate'])
    assert.equal(bad.code, 2)
    assert.match(bad.stderr, /^dag-cbor-car: help takes one command name/)
  })
})
