// The README's library examples (examples/*.js), run as a user runs them (node, the package by its
// name), on the repository's CARs: they must keep working and printing what they print.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildRepo, keyPair, post } from './core/check/atproto/helpers/repo-builder.js'

const CAR_DIR = fileURLToPath(new URL('../', import.meta.url))
const GENESIS = fileURLToPath(new URL('../../test/fixtures/cars/filecoin-calibnet-genesis.car', import.meta.url))
const REPO = fileURLToPath(new URL('fixtures/atproto/repo-small-v2.car', import.meta.url))

/** @param {string} name @param {string[]} args */
function example (name, args) {
  const r = spawnSync(process.execPath, [path.join('examples', name), ...args], { cwd: CAR_DIR, encoding: 'utf8' })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

describe('the library examples (examples/)', function () {
  this.timeout(60_000)

  it('iterate-blocks.js: the blocks, hashes verified, the one non-canonical block named', () => {
    const r = example('iterate-blocks.js', [GENESIS])
    assert.equal(r.status, 0, r.stderr)
    assert.match(r.stdout, /^CARv1, roots: bafy/)
    assert.match(r.stdout, /bafyreiaqpwbbyjo4a42saasj36kkrpv4tsherf2e7bvezkert2a7dhonoi at byte 368: non-canonical, keys out of order at \/Network \(byte 30\)\n/)
    assert.match(r.stdout, /\n1207 blocks, every hash verified: 1196 canonical, 1 non-canonical, 10 ok\n$/)
  })

  it('verify.js: the summary, exit 1 for the non-canonical block', () => {
    const r = example('verify.js', [GENESIS])
    assert.equal(r.status, 1, r.stderr)
    assert.match(r.stdout, /^fail: 1207 blocks, 1207 hashes verified, 1196 canonical \/ 1 non-canonical \/ 0 invalid DAG-CBOR\n {2}block at byte offset 368: keys out of order at \/Network \(byte 30\)\n$/)
  })

  it('write-car.js: writes a CAR that checks clean, as @ipld/car reads it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dag-cbor-car-example-'))
    try {
      const out = path.join(dir, 'out.car')
      const r = example('write-car.js', [out])
      assert.equal(r.status, 0, r.stderr)
      assert.match(r.stdout, /out\.car: 4 blocks, root bafy\w+, ok\n$/)
      const { CarReader } = await import('@ipld/car')
      const reader = await CarReader.fromBytes(fs.readFileSync(out))
      let n = 0
      for await (const b of reader.blocks()) n += b.bytes.length > 0 ? 1 : 0
      assert.equal(n, 4)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('atproto-repo.js: a real export\'s collections; with the right did:key the signature is valid, with another not', async () => {
    const r = example('atproto-repo.js', [REPO])
    assert.equal(r.status, 0, r.stderr)
    assert.equal(r.stdout, 'ok: did:plc:z5vnbioquyhivxirw3bbljmu, commit version 2, signature not checked (no key given)\n  app.bsky.actor.profile: 1 records\n  app.bsky.feed.post: 5 records\n')
    const signer = keyPair('k256', new Uint8Array(32).fill(3))
    const { car } = await buildRepo([{ key: 'app.bsky.feed.post/3k00000000001', value: post('hi') }], { signer })
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dag-cbor-car-example-'))
    try {
      const file = path.join(dir, 'repo.car')
      fs.writeFileSync(file, car)
      const good = example('atproto-repo.js', [file, signer.did])
      assert.equal(good.status, 0, good.stderr)
      assert.match(good.stdout, /^ok: did:plc:\w+, commit version 3, signature valid\n/)
      const bad = example('atproto-repo.js', [file, keyPair('k256', new Uint8Array(32).fill(4)).did])
      assert.equal(bad.status, 1)
      assert.match(bad.stdout, /signature NOT valid\n[\s\S]*commit-signature: /)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
