// dag-cbor-car help: every command the dispatcher knows is listed; help <command> is its --help.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { tool, TOOL, GENESIS } from './helpers.js'
import { COMMANDS } from '../../lib/commands/command-table.js'

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

  it('--help and -h alone list every command, as help does', () => {
    const help = tool(['help']).stdout
    for (const flag of ['--help', '-h']) {
      const r = tool([flag])
      assert.equal(r.code, 0)
      assert.equal(r.stdout, help)
    }
    assert.match(tool(['verify', '--help']).stdout, /dag-cbor-car help .*the other commands/)
  })

  it('an unknown first word that is not a file: "unknown command", the closest command, exit 2', () => {
    const r = tool(['verfy', 'x.car'])
    assert.equal(r.code, 2)
    assert.equal(r.stdout, '')
    assert.equal(r.stderr.split('\n')[0], "dag-cbor-car: unknown command 'verfy' (did you mean verify?)")
    assert.match(tool(['isnpect', 'x.car']).stderr, /^dag-cbor-car: unknown command 'isnpect' \(did you mean inspect\?\)/)
    assert.match(tool(['get-blok']).stderr, /\(did you mean get-block\?\)/)
    const none = tool(['frobnicate'])
    assert.equal(none.code, 2)
    assert.match(none.stderr, /^dag-cbor-car: unknown command 'frobnicate'\ndag-cbor-car help lists the commands/)
    // a name with a dot or a slash is a file: verify says it cannot read it
    const file = tool(['missing.car'])
    assert.equal(file.code, 2)
    assert.match(file.stderr, /^dag-cbor-car: cannot read missing\.car: no such file/)
  })

  it('a file whose name is a plain word is still verified', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dag-cbor-car-word-'))
    try {
      fs.copyFileSync(GENESIS, path.join(dir, 'genesis'))
      const r = spawnSync(process.execPath, [TOOL, 'genesis', '--relaxed'], { cwd: dir, encoding: 'utf8' })
      assert.equal(r.status, 0, r.stderr)
      assert.match(r.stdout, /^genesis \(CARv1, 1 root\)/)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('version is --version is -V', () => {
    const manifest = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))
    for (const args of [['version'], ['--version'], ['-V']]) {
      const r = tool(args)
      assert.equal(r.code, 0)
      assert.equal(r.stdout, `dag-cbor-car ${manifest.version}\n`)
    }
  })
})
