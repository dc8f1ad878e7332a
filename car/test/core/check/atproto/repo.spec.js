// Whole repos: the two real CARs (version-2 commits; one a partial slice), and repos built here
// with one planted fault each (records, commit, signature), through the checker and through the
// CLI (exit status, one line per fault, the summary). Also `repo export`'s writing rules.
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { p256 } from '@noble/curves/nist.js'
import { fixture, check } from './helpers/fixtures.js'
import { block, buildRepo, buildMst, commitBlock, keyPair, carBytes, post } from './helpers/repo-builder.js'
import { createExporter } from '../../../../lib/node/atproto/export-dir.js'
import { checkRepo } from '../../../../lib/node/node-library.js'
import { withLongVarints } from '../../../helpers/car-oracle.js'

const TOOL = fileURLToPath(new URL('../../../../bin/dag-cbor-car.js', import.meta.url))
const SMALL = fixture('repo-small-v2.car')
const SLICE = fixture('repo-slice-v2.car')
const STACK_LINE = /\n\s+at .+:\d+:\d+/

/** @param {string[]} args */
function tool (...args) {
  const r = spawnSync(process.execPath, [TOOL, ...args], { encoding: 'utf8', timeout: 60000 })
  if (r.error) throw r.error
  assert.doesNotMatch(r.stderr, STACK_LINE)
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

/** @type {string} */
let tmp
before(() => { tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'repo-spec-')) })
after(() => { fs.rmSync(tmp, { recursive: true, force: true }) })

/** @param {string} name @param {Uint8Array} bytes */
function tmpFile (name, bytes) {
  const file = path.join(tmp, name)
  fs.writeFileSync(file, bytes)
  return file
}

const POSTS = ['3jzfcijpj2z2a', '3jzfcijpj2z2b', '3jzfcijpj2z2c', '3jzfcijpj2z2d', '3jzfcijpj2z2e'].map((rkey, i) => ({ key: `app.bsky.feed.post/${rkey}`, value: post(`post ${i}`) }))
const PROFILE = { key: 'app.bsky.actor.profile/self', value: { $type: 'app.bsky.actor.profile', displayName: 'x' } }

describe('atproto repo: real CARs', function () {
  this.timeout(60000) // child processes, on a shared machine
  it('repo-small-v2.car: version 2 reported as such, 6 records, OK without a signature check, exit 0', () => {
    const r = tool('repo', 'verify', SMALL)
    assert.equal(r.code, 0, r.stdout + r.stderr)
    assert.doesNotMatch(r.stdout, /FAULT/)
    assert.match(r.stdout, /commit {6}bafyreieovfuizojpw3zresz7sx3nk4trm2by23pt5rxbey3jme4uo5ogiu version 2 \(the legacy commit format/)
    assert.match(r.stdout, /records {5}6: app\.bsky\.actor\.profile 1, app\.bsky\.feed\.post 5/)
    assert.match(r.stdout, /signature {3}not checked/)
    assert.match(r.stdout, /result {6}OK: .*the signature was not checked/)
  })

  it('repo-slice-v2.car: INCOMPLETE, naming the missing MST node and the four missing records, exit 1', () => {
    const r = tool('repo', 'verify', SLICE)
    assert.equal(r.code, 1)
    const faults = r.stdout.split('\n').filter((l) => l.startsWith('FAULT'))
    assert.deepEqual(faults.map((l) => l.split(' ')[1]), ['mst-node-missing', 'record-missing', 'record-missing', 'record-missing', 'record-missing'])
    assert.match(faults[0], /node bafyreibbvuvlyhgpw46oktgv7ggfpuivms3y7xsfocxsys2ahdyr4uyola\): not in the CAR \(linked from node bafyreiha5viayifdgrx3bkvcyl25gx5djjrk365xntixohli7d5caivd7y; it holds the keys before app\.bsky\.feed\.post\/3jquh3dxgi52o\)/)
    assert.match(faults[4], /key app\.bsky\.system\.declaration\/self\): record bafyreid27zk7lbis4zw5fz4podbvbs4fc5ivwji3dmrwa6zggnj4bnd57u: not in the CAR/)
    assert.match(r.stdout, /result {6}INCOMPLETE: the CAR lacks 1 MST node and 4 records/)
    const json = JSON.parse(tool('repo', 'verify', SLICE, '--json').stdout)
    assert.equal(json.result, 'incomplete')
    assert.deepEqual(json.missing.nodes.map((/** @type {any} */ n) => n.cid), ['bafyreibbvuvlyhgpw46oktgv7ggfpuivms3y7xsfocxsys2ahdyr4uyola'])
    assert.equal(json.missing.records.length, 4)
  })

  it('repo ls: collection/rkey CID in MST order, --json lines; from standard input too', () => {
    const r = tool('repo', 'ls', SMALL)
    assert.equal(r.code, 0, r.stderr)
    const lines = r.stdout.trim().split('\n')
    assert.equal(lines.length, 6)
    assert.equal(lines[0], 'app.bsky.actor.profile/self bafyreigrwbb7mrrcu3jpcbraatl7rzlauto2fdqzamnsejurytsdexqsiq')
    const paths = lines.map((l) => l.split(' ')[0])
    assert.deepEqual(paths, [...paths].sort())
    const json = tool('repo', 'ls', SMALL, '--json').stdout.trim().split('\n').map((l) => JSON.parse(l))
    assert.deepEqual(json.map((j) => `${j.path} ${j.cid}`), lines)
    const piped = spawnSync(process.execPath, [TOOL, 'repo', 'ls', '-'], { input: fs.readFileSync(SMALL), encoding: 'utf8' })
    assert.equal(piped.stdout, r.stdout)
    const slice = tool('repo', 'ls', SLICE)
    assert.equal(slice.code, 1, 'a missing MST node is a fault for ls too')
    assert.equal(slice.stdout.trim().split('\n').length, 5)
    assert.match(slice.stderr, /^FAULT mst-node-missing/)
  })

  it('the same repo wrapped in a CARv2 verifies the same (blocks read again at their file offsets)', () => {
    const v1 = fs.readFileSync(SMALL)
    const header = new Uint8Array(40) // characteristics, data offset, data size, index offset (little-endian u64s)
    const view = new DataView(header.buffer)
    const pragma = [0x0a, 0xa1, 0x67, 0x76, 0x65, 0x72, 0x73, 0x69, 0x6f, 0x6e, 0x02]
    const padding = 13 // the payload need not follow the header directly
    view.setBigUint64(16, BigInt(pragma.length + 40 + padding), true)
    view.setBigUint64(24, BigInt(v1.length), true)
    const v2 = tmpFile('small-v2-wrapped.car', Buffer.concat([Uint8Array.from(pragma), header, new Uint8Array(padding), v1]))
    const r = tool('repo', 'verify', v2)
    assert.equal(r.code, 0, r.stdout)
    assert.match(r.stdout, /\(CARv2, 10 blocks, 9 distinct\)/)
    assert.equal(tool('repo', 'ls', v2).stdout, tool('repo', 'ls', SMALL).stdout)
  })

  it('length varints written longer than their shortest form: a car-varint fault each, at the offsets verify names, exit 1; checkRepo and repo ls too', async () => {
    // the header's, the commit's section (the first) and the last section's, each one byte longer
    const { bytes, offsets } = withLongVarints(fs.readFileSync(SMALL), [0, 1, 10])
    const file = tmpFile('small-long-varints.car', bytes)
    const verify = JSON.parse(tool('verify', file, '--json').stdout)
    assert.deepEqual(verify.problems.map((/** @type {any} */ p) => `${p.kind}@${p.at}`), offsets.map((at) => `varint@${at}`))
    const r = tool('repo', 'verify', file)
    assert.equal(r.code, 1, r.stdout)
    const faults = r.stdout.split('\n').filter((l) => l.startsWith('FAULT'))
    assert.deepEqual(faults, verify.problems.map((/** @type {any} */ p) => `FAULT car-varint: ${p.message}`))
    assert.match(r.stdout, /result {6}FAIL: 3 faults \(car-varint 3\)/)
    const json = JSON.parse(tool('repo', 'verify', file, '--json').stdout)
    const { summary } = await check(bytes)
    for (const s of [json, summary, await checkRepo(bytes)]) {
      assert.equal(s.result, 'faults')
      assert.deepEqual(s.faults.map((/** @type {any} */ f) => [f.rule, f.at, f.message]), verify.problems.map((/** @type {any} */ p) => ['car-varint', p.at, p.message]))
    }
    assert.equal(tool('repo', 'ls', file).code, 1, 'ls reads the same CAR')
    // all 11 long: the 10 the reader keeps listed, every one counted, as verify counts them
    const all = withLongVarints(fs.readFileSync(SMALL), Array.from({ length: 11 }, (_, i) => i))
    const every = await checkRepo(all.bytes)
    assert.deepEqual([every.faultCount, every.faultsByRule['car-varint'], every.faults.map((f) => f.at)], [11, 11, all.offsets.slice(0, 10)])
  })

  it('unreadable input exits 2 with one line', () => {
    const notCar = tmpFile('not.car', new TextEncoder().encode('hello, this is not a CAR'))
    const r = tool('repo', 'verify', notCar)
    assert.equal(r.code, 2)
    assert.match(r.stderr, /^dag-cbor-car: .*not\.car: not a CAR file/)
    const cut = tmpFile('cut.car', fs.readFileSync(SMALL).subarray(0, 1000))
    assert.equal(tool('repo', 'verify', cut).code, 2)
    assert.equal(tool('repo', 'verify', path.join(tmp, 'nothing.car')).code, 2)
    assert.equal(tool('repo', 'verify').code, 2)
    assert.equal(tool('repo', 'frobnicate', SMALL).code, 2)
    assert.equal(tool('repo', 'verify', SMALL, '--key', 'did:plc:ewvi7nxzyoun6zhxrhs64oiz').code, 2, 'no DID resolution')
  })
})

describe('atproto repo: built repos', function () {
  this.timeout(60000)
  const signer = keyPair('k256')

  it('a valid version-3 repo with a K-256 key, and one with a P-256 key: signature valid, exit 0', async () => {
    for (const curve of /** @type {const} */ (['k256', 'p256'])) {
      const key = keyPair(curve)
      const repo = await buildRepo([...POSTS, PROFILE], { signer: key })
      const { summary } = await check(repo.car, { did: key.did })
      assert.deepEqual(summary.faults, [], curve)
      assert.deepEqual(summary.signature, { checked: true, valid: true, key: key.did, did: null })
      const file = tmpFile(`v3-${curve}.car`, repo.car)
      const r = tool('repo', 'verify', file, '--key', key.did)
      assert.equal(r.code, 0, r.stdout)
      assert.match(r.stdout, /commit {6}\S+ version 3\n/)
      assert.match(r.stdout, /signature {3}valid \(key did:key:/)
      assert.match(r.stdout, /result {6}OK: commit, signature, MST and every record checked/)
    }
  })

  it('a bad signature: another key, a tampered sig, a high-S sig; each commit-signature, exit 1', async () => {
    const repo = await buildRepo(POSTS, { signer })
    const other = keyPair('k256')
    const wrongKey = await check(repo.car, { did: other.did })
    assert.deepEqual(wrongKey.rules, ['commit-signature'])
    assert.match(wrongKey.summary.faults[0].message, /does not verify with did:key:/)
    assert.equal(wrongKey.summary.faults[0].node, repo.commit.cid.toString())

    const tampered = await buildRepo(POSTS, { signer, commit: { sig: (/** @type {Uint8Array} */ s) => { const t = s.slice(); t[10] ^= 1; return t } } })
    assert.deepEqual((await check(tampered.car, { did: signer.did })).rules, ['commit-signature'])

    const p = keyPair('p256')
    const highS = await buildRepo(POSTS, { signer: p, commit: { sig: (/** @type {Uint8Array} */ s) => { const sig = p256.Signature.fromBytes(s, 'compact'); return new p256.Signature(sig.r, p256.Point.CURVE().n - sig.s).toBytes('compact') } } })
    const high = await check(highS.car, { did: p.did })
    assert.deepEqual(high.rules, ['commit-signature'])
    assert.match(high.summary.faults[0].message, /high-S/)

    const file = tmpFile('bad-sig.car', repo.car)
    const r = tool('repo', 'verify', file, '--key', other.did)
    assert.equal(r.code, 1)
    assert.match(r.stdout, /^FAULT commit-signature \(node bafy\w+\): the signature does not verify/m)
    assert.match(r.stdout, /signature {3}INVALID/)
  })

  it('--key with a DID document file: its #atproto key is used, and its DID must be the commit\'s', async () => {
    const repo = await buildRepo(POSTS, { signer })
    const file = tmpFile('doc-key.car', repo.car)
    const did = 'did:plc:ewvi7nxzyoun6zhxrhs64oiz'
    const doc = (/** @type {string} */ id) => JSON.stringify({ id, verificationMethod: [{ id: `${id}#atproto`, type: 'Multikey', controller: id, publicKeyMultibase: signer.did.slice(8) }] })
    const good = tmpFile('did.json', new TextEncoder().encode(doc(did)))
    assert.equal(tool('repo', 'verify', file, '--key', good).code, 0)
    const otherDid = tmpFile('other-did.json', new TextEncoder().encode(doc('did:plc:aaaaaaaaaaaaaaaaaaaaaaaa')))
    const r = tool('repo', 'verify', file, '--key', otherDid)
    assert.equal(r.code, 1)
    assert.match(r.stdout, /FAULT commit-did-mismatch/)
    assert.equal(tool('repo', 'verify', file, '--key', tmpFile('junk.json', new TextEncoder().encode('{'))).code, 2)
  })

  it('a version-2 commit is reported as such and passes; an unknown version is a fault', async () => {
    const v2 = await buildRepo(POSTS, { signer, commit: { version: 2, omit: ['rev'] } })
    const { summary } = await check(v2.car, { did: signer.did })
    assert.deepEqual(summary.faults, [])
    assert.equal(summary.commit?.version, 2)
    const r = tool('repo', 'verify', tmpFile('v2.car', v2.car))
    assert.equal(r.code, 0)
    assert.match(r.stdout, /version 2 \(the legacy commit format; version 3 is current\)/)
    const v4 = await buildRepo(POSTS, { signer, commit: { version: 4 } })
    assert.deepEqual((await check(v4.car)).rules, ['commit-version'])
  })

  it('commit fields: a v3 commit without prev, with a bad rev or DID', async () => {
    assert.deepEqual((await check((await buildRepo(POSTS, { signer, commit: { omit: ['prev'] } })).car)).rules, ['commit-schema'])
    assert.deepEqual((await check((await buildRepo(POSTS, { signer, commit: { rev: 'not-a-tid' } })).car)).rules, ['commit-rev'])
    assert.deepEqual((await check((await buildRepo(POSTS, { signer, commit: { did: 'DID:plc:x' } })).car)).rules, ['commit-did'])
  })

  it('an empty repo (one empty root node) passes', async () => {
    const repo = await buildRepo([], { signer })
    const { summary } = await check(repo.car, { did: signer.did })
    assert.deepEqual(summary.faults, [])
    assert.equal(summary.mst.empty, true)
    assert.equal(summary.records.count, 0)
    const r = tool('repo', 'verify', tmpFile('empty.car', repo.car))
    assert.equal(r.code, 0)
    assert.match(r.stdout, /mst {9}empty \(an empty repo\)/)
  })

  it('a record block dropped: record-missing, INCOMPLETE, naming the key and the CID', async () => {
    const repo = await buildRepo(POSTS, { signer })
    const dropped = repo.records[2]
    const cut = await buildRepo(POSTS, { signer, drop: (b) => b.cid.equals(dropped.block.cid) })
    const { summary } = await check(cut.car)
    assert.deepEqual(summary.faults.map((f) => [f.rule, f.key]), [['record-missing', dropped.key]])
    assert.match(summary.faults[0].message, new RegExp(dropped.block.cid.toString()))
    assert.equal(summary.result, 'incomplete')
  })

  it('a record with a float, without $type, not a map, with a bad blob: each under its rule', async () => {
    const cases = [
      [{ $type: 'app.bsky.feed.post', text: 'x', score: 1.5 }, 'record-float', /\/score: a float \(1\.5/],
      [{ $type: 'app.bsky.feed.post', text: 'x', n: 2 }, null, null],
      [{ text: 'no type' }, 'record-type', /no \$type/],
      [['a', 'list'], 'record-not-map', /not a map/],
      [{ $type: 'app.bsky.actor.profile', avatar: { $type: 'blob', ref: block({}).cid, mimeType: '', size: 0 } }, 'record-blob', /codec 0x71, not raw.*mimeType.*size/],
      [{ $type: 'app.bsky.feed.post', big: 2n ** 63n }, 'record-integer', /outside signed 64 bits/]
    ]
    for (const [value, rule, message] of cases) {
      const repo = await buildRepo([{ key: POSTS[0].key, value }, ...POSTS.slice(1)], { signer })
      const { summary } = await check(repo.car)
      if (rule === null) { assert.deepEqual(summary.faults, []); continue }
      assert.deepEqual(summary.faults.map((f) => [f.rule, f.key]), [[rule, POSTS[0].key]], JSON.stringify(value, (k, v) => typeof v === 'bigint' ? String(v) : v))
      assert.match(summary.faults[0].message, /** @type {RegExp} */ (message))
    }
    // a float holding an integer (Go writes 1.0 that way) decodes to a plain 1, and is still a float
    const floatOne = Uint8Array.from([0xa2, 0x61, 0x6e, 0xfb, 0x3f, 0xf0, 0, 0, 0, 0, 0, 0, 0x65, 0x24, 0x74, 0x79, 0x70, 0x65, 0x61, 0x78])
    const { CID } = await import('multiformats/cid')
    const { sha256 } = await import('multiformats/hashes/sha2')
    const rec = { cid: CID.create(1, 0x71, /** @type {any} */ (sha256.digest(floatOne))), bytes: floatOne }
    const mst = buildMst([{ key: POSTS[0].key, value: rec.cid }])
    const c = commitBlock({ data: mst.root, key: signer })
    const { summary } = await check(await carBytes([c.cid], [c, ...mst.blocks, rec]))
    assert.deepEqual(summary.faults.map((f) => f.rule), ['record-float'])
    assert.match(summary.faults[0].message, /\/n: a float \(1,/)
  })

  it('a record that is not strict DAG-CBOR, and one whose bytes do not match its CID', async () => {
    const unsorted = Uint8Array.from([0xa2, 0x65, 0x24, 0x74, 0x79, 0x70, 0x65, 0x61, 0x78, 0x61, 0x61, 0x01]) // {"$type": "x", "a": 1}: keys out of order
    const { CID } = await import('multiformats/cid')
    const { sha256 } = await import('multiformats/hashes/sha2')
    const rec = { cid: CID.create(1, 0x71, /** @type {any} */ (sha256.digest(unsorted))), bytes: unsorted }
    const forged = { cid: block(post('claimed')).cid, bytes: block(post('delivered')).bytes }
    const mst = buildMst([{ key: POSTS[0].key, value: rec.cid }, { key: POSTS[1].key, value: forged.cid }])
    const c = commitBlock({ data: mst.root, key: signer })
    const { summary } = await check(await carBytes([c.cid], [c, ...mst.blocks, rec, forged]))
    assert.deepEqual(summary.faults.map((f) => [f.rule, f.key]), [['record-dag-cbor', POSTS[0].key], ['block-hash', POSTS[1].key]])
    assert.match(summary.faults[0].message, /keys out of order/)
  })

  it('blocks the commit does not reach are counted', async () => {
    const repo = await buildRepo(POSTS, { signer, extraBlocks: [block(post('stray 1')), block(post('stray 2'))] })
    const { summary } = await check(repo.car)
    assert.deepEqual(summary.faults, [])
    assert.equal(summary.unreached, 2)
  })

  it('a missing commit block, and a CAR whose root is not a commit', async () => {
    const whole = await buildRepo(POSTS, { signer })
    // the same records and key give the same commit (deterministic ECDSA, RFC 6979): leave it out
    const headless = await buildRepo(POSTS, { signer, drop: (b) => b.cid.equals(whole.commit.cid) })
    const { summary, rules } = await check(headless.car)
    assert.deepEqual(rules, ['commit-missing'])
    assert.equal(summary.missing.commit, whole.commit.cid.toString())
    assert.equal(summary.result, 'incomplete')
    const notCommit = block(post('x'))
    assert.deepEqual((await check(await carBytes([notCommit.cid], [notCommit]))).rules.sort(), ['commit-did', 'commit-rev', 'commit-schema', 'commit-schema', 'commit-sig', 'commit-version'].sort())
  })
})

describe('atproto repo: records against their Lexicons (--lexicons DIR)', function () {
  this.timeout(60000)
  const signer = keyPair('k256')
  // the repository's Lexicon fixtures (its test/fixtures/lexicons/: app.bsky records and what they reach)
  const LEXICONS = fileURLToPath(new URL('../../../../../test/fixtures/lexicons', import.meta.url))
  /** @type {import('dag-cbor-fast/lexicon').Lexicons} */
  let lexicons
  before(async () => {
    const { compile } = await import('dag-cbor-fast/lexicon')
    const files = fs.readdirSync(LEXICONS, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.json'))
    lexicons = compile(files.map((f) => fs.readFileSync(path.join(LEXICONS, f), 'utf8')))
  })
  const POST_CID = block(post('liked')).cid.toString()
  const LIKE = { key: 'app.bsky.feed.like/3jzfcijpj2z2f', value: { $type: 'app.bsky.feed.like', subject: { uri: 'at://did:plc:ewvi7nxzyoun6zhxrhs64oiz/app.bsky.feed.post/3jzfcijpj2z2a', cid: POST_CID }, createdAt: '2024-01-01T00:00:00.000Z' } }
  // a collection the published Lexicons do not define
  const LIST = { key: 'com.example.list/3jzfcijpj2z2g', value: { $type: 'com.example.list', name: 'no Lexicon given for this one' } }
  const longPost = { key: POSTS[2].key, value: post('x'.repeat(301)) }
  const badLike = { key: LIKE.key, value: { ...LIKE.value, subject: { ...LIKE.value.subject, uri: 'https://example.com/not-an-at-uri' } } }

  it('a valid repo passes, each record counted valid; a collection with no Lexicon is counted as not checked, never valid', async () => {
    const { summary } = await check((await buildRepo([...POSTS, PROFILE, LIKE], { signer })).car, { lexicons })
    assert.deepEqual(summary.faults, [])
    assert.deepEqual({ ...summary.lexicons, recordTypes: undefined }, { recordTypes: undefined, valid: 7, invalid: 0, notChecked: 0, notCheckedByCollection: {}, unread: 0 })
    assert.ok(summary.lexicons?.recordTypes.includes('app.bsky.feed.post'))
    const withList = await check((await buildRepo([...POSTS, LIST], { signer })).car, { lexicons })
    assert.deepEqual(withList.summary.faults, [])
    assert.deepEqual([withList.summary.lexicons?.valid, withList.summary.lexicons?.notChecked, withList.summary.lexicons?.notCheckedByCollection], [5, 1, { 'com.example.list': 1 }])
    assert.equal((await check((await buildRepo(POSTS, { signer })).car)).summary.lexicons, undefined, 'no lexicons given: no lexicons field')
  })

  it('a post over 300 graphemes and a like whose subject is not an at-uri: one record-lexicon fault each, naming the record, its CID, the place in it and the rule', async () => {
    const repo = await buildRepo([...POSTS.map((p) => (p.key === longPost.key ? longPost : p)), badLike], { signer })
    const { summary } = await check(repo.car, { lexicons })
    const cidOf = (/** @type {string} */ key) => String(repo.records.find((r) => r.key === key)?.block.cid)
    assert.deepEqual(summary.faults.map((f) => [f.rule, f.key, f.lexicon?.rule, f.lexicon?.path]), [
      ['record-lexicon', badLike.key, 'lexicon-format', '/subject/uri'],
      ['record-lexicon', longPost.key, 'lexicon-max-graphemes', '/text']
    ])
    assert.match(summary.faults[0].message, new RegExp(`^record ${cidOf(badLike.key)}: Lexicon decode of app\\.bsky\\.feed\\.like at byte \\d+, /subject/uri: .*\\[rule: lexicon-format\\]$`))
    assert.match(summary.faults[1].message, new RegExp(`^record ${cidOf(longPost.key)}: Lexicon decode of app\\.bsky\\.feed\\.post at byte \\d+, /text: .*300.*\\[rule: lexicon-max-graphemes\\]$`))
    assert.equal(summary.result, 'faults')
    assert.deepEqual([summary.lexicons?.valid, summary.lexicons?.invalid], [4, 2])
  })

  it('the command: exit 0 and the lexicons line on a valid repo; exit 1 and a FAULT line per invalid record; --json carries both', async () => {
    const good = tmpFile('lexicon-good.car', (await buildRepo([...POSTS, LIKE, LIST], { signer })).car)
    const ok = tool('repo', 'verify', good, '--lexicons', LEXICONS)
    assert.equal(ok.code, 0, ok.stdout + ok.stderr)
    assert.match(ok.stdout, /^lexicons {4}\d+ record types given; records 6 valid, 0 invalid, 1 not checked \(no Lexicon given: com\.example\.list 1\)$/m)
    assert.match(ok.stdout, /result {6}OK: commit, MST and every record checked, 6 against their Lexicon \(1 of collections with no Lexicon given not checked against one\)/)
    const repo = await buildRepo([...POSTS.map((p) => (p.key === longPost.key ? longPost : p))], { signer })
    const bad = tmpFile('lexicon-bad.car', repo.car)
    const cid = String(repo.records.find((r) => r.key === longPost.key)?.block.cid)
    const r = tool('repo', 'verify', bad, '--lexicons', LEXICONS)
    assert.equal(r.code, 1, r.stdout + r.stderr)
    const faults = r.stdout.split('\n').filter((l) => l.startsWith('FAULT'))
    assert.equal(faults.length, 1, r.stdout)
    assert.match(faults[0], new RegExp(`^FAULT record-lexicon \\(node \\w+, key ${longPost.key}\\): record ${cid}: Lexicon decode of app\\.bsky\\.feed\\.post at byte \\d+, /text: .*\\[rule: lexicon-max-graphemes\\]$`))
    assert.match(r.stdout, /records 4 valid, 1 invalid \(above\), 0 not checked/)
    assert.match(r.stdout, /result {6}FAIL: 1 fault \(record-lexicon 1\)/)
    const json = JSON.parse(tool('repo', 'verify', bad, '--lexicons', LEXICONS, '--json').stdout)
    assert.deepEqual([json.result, json.lexicons.invalid, json.faults[0].key, json.faults[0].lexicon.rule, json.faults[0].lexicon.path], ['faults', 1, longPost.key, 'lexicon-max-graphemes', '/text'])
    assert.equal(typeof json.faults[0].lexicon.offset, 'number')
    assert.equal(tool('repo', 'ls', bad, '--lexicons', LEXICONS).code, 2, 'ls reads no records')
  })

  it('a broken Lexicon directory is a usage error (exit 2) naming the file and the path in the document; so is a file that is not JSON, and no documents', () => {
    const dir = path.join(tmp, 'broken-lexicons')
    fs.cpSync(LEXICONS, dir, { recursive: true })
    const like = path.join(dir, 'app', 'bsky', 'feed', 'like.json')
    const doc = JSON.parse(fs.readFileSync(like, 'utf8'))
    doc.defs.main.record.properties.createdAt.maxLenght = 10
    fs.writeFileSync(like, JSON.stringify(doc))
    const file = tmpFile('lexicon-dir.car', fs.readFileSync(SMALL))
    const r = tool('repo', 'verify', file, '--lexicons', dir)
    assert.equal(r.code, 2)
    assert.equal(r.stdout, '')
    assert.match(r.stderr, /--lexicons .*broken-lexicons: .*broken-lexicons[/\\]app[/\\]bsky[/\\]feed[/\\]like\.json: Lexicon document app\.bsky\.feed\.like, at \/defs\/main\/record\/properties\/createdAt\/maxLenght: /)
    fs.writeFileSync(like, '{ "lexicon": 1,')
    assert.match(tool('repo', 'verify', file, '--lexicons', dir).stderr, /like\.json is not JSON/)
    const empty = path.join(tmp, 'no-lexicons')
    fs.mkdirSync(empty)
    const none = tool('repo', 'verify', file, '--lexicons', empty)
    assert.equal(none.code, 2)
    assert.match(none.stderr, /holds no \*\.json file/)
  })
})

describe('atproto repo export', function () {
  this.timeout(60000)
  const signer = keyPair('k256')

  /** every file under `dir`, relative to it @param {string} dir @returns {string[]} */
  const filesUnder = (dir) => fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => path.relative(dir, path.join(d.parentPath ?? d.path, d.name))).sort()

  it('writes every record as DAG-JSON at DIR/<collection>/<rkey>.json', async () => {
    const repo = await buildRepo([...POSTS, PROFILE], { signer })
    const out = path.join(tmp, 'export-ok')
    const r = tool('repo', 'export', tmpFile('export-ok.car', repo.car), '--out', out)
    assert.equal(r.code, 0, r.stdout)
    assert.deepEqual(filesUnder(out), [path.join('app.bsky.actor.profile', 'self.json'), ...POSTS.map((p) => `${p.key}.json`.replace('/', path.sep))].sort())
    assert.deepEqual(JSON.parse(fs.readFileSync(path.join(out, 'app.bsky.actor.profile', 'self.json'), 'utf8')), PROFILE.value)
    assert.match(r.stdout, /export {6}6 records written to /)
    assert.equal(tool('repo', 'export', tmpFile('again.car', repo.car), '--out', out).code, 2, 'DIR must be new or empty')
  })

  it('a crafted MST with path-traversal keys writes nothing outside DIR, refuses and reports them', async () => {
    const evil = ['app.bsky.feed.post/../../x', '../../y/z', 'app.bsky.feed.post/..', '/etc/passwd', 'app.bsky.feed.post/a\\..\\..\\w']
    const repo = await buildRepo([...evil.map((key) => ({ key, value: post(key) })), POSTS[0]], { signer })
    const base = path.join(tmp, 'traversal')
    const out = path.join(base, 'a', 'b', 'out')
    const r = tool('repo', 'export', tmpFile('evil.car', repo.car), '--out', out)
    assert.equal(r.code, 1)
    assert.deepEqual(filesUnder(base), [path.join('a', 'b', 'out', ...`${POSTS[0].key}.json`.split('/'))])
    for (const key of evil) {
      const shown = key.replace(/\\/g, '\\u005c').replace(/[.\\/]/g, '\\$&') // reports escape backslashes
      assert.match(r.stdout, new RegExp(`^FAULT mst-repo-path \\(node bafy\\w+, key ${shown}\\)`, 'm'))
      assert.match(r.stdout, new RegExp(`^REFUSED ${shown}: the key is not a valid <collection>/<record key> path$`, 'm'))
    }
    assert.match(r.stdout, /export {6}1 records written to .*, 5 refused/)
  })

  it('the writer refuses unsafe names itself, whatever the caller checked', () => {
    const out = path.join(tmp, 'writer')
    const exporter = createExporter(out)
    for (const [collection, rkey] of [['..', 'x'], ['app.bsky.feed.post', '..'], ['app.bsky.feed.post', 'a/../../b'], ['a.b/c', 'x'], [null, 'x'], ['app.bsky.feed.post', '']]) {
      assert.match(String(exporter.write(collection, rkey, {})), /not a valid/, `${collection} ${rkey}`)
    }
    assert.match(String(createExporter(path.join(tmp, 'win'), 'win32').write('app.bsky.feed.post', 'con', {})), /Windows/)
    assert.equal(exporter.write('app.bsky.feed.post', 'ok', { $type: 'app.bsky.feed.post' }), null)
    assert.match(String(exporter.write('app.bsky.feed.post', 'ok', {})), /exists already/)
    assert.deepEqual(filesUnder(out), [path.join('app.bsky.feed.post', 'ok.json')])
  })
})
