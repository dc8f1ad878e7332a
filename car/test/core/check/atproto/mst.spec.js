// The MST checks: the interop vectors for key heights and shared prefixes, trees the test builder
// makes (helpers/repo-builder.js, written from the spec), and trees with one planted fault each,
// which must be reported under their rule, naming the node and the key.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import { keyHeight, commonPrefixLength } from '../../../../lib/core/check/atproto/mst-key.js'
import { fixture, fixtureJson, check } from './helpers/fixtures.js'
import { heightOf, block, nodeValue, buildMst, buildRepo, commitBlock, keyPair, carBytes, post } from './helpers/repo-builder.js'

const enc = new TextEncoder()
const POST = 'app.bsky.feed.post'

/** Keys of the form app.bsky.feed.post/<tid-like>, with the heights the test wants. @param {number} count @param {(h: number) => boolean} want */
function postKeys (count, want = () => true) {
  const keys = []
  for (let i = 0; keys.length < count; i++) {
    const key = `${POST}/3k${i.toString(32).padStart(11, 'z')}`
    if (want(heightOf(key))) keys.push(key)
  }
  return keys
}

describe('atproto MST', () => {
  it('key_heights.json: every key at its height (the checker, and the test builder)', () => {
    const vectors = fixtureJson('key_heights.json')
    assert.ok(vectors.length >= 9)
    for (const { key, height } of vectors) {
      assert.equal(keyHeight(enc.encode(key)), height, key)
      assert.equal(heightOf(key), height, key)
    }
  })

  it('common_prefix.json: shared prefix lengths', () => {
    const vectors = fixtureJson('common_prefix.json')
    assert.ok(vectors.length >= 10)
    for (const { left, right, len } of vectors) assert.equal(commonPrefixLength(enc.encode(left), enc.encode(right)), len, `${left} | ${right}`)
  })

  it('example_keys.txt: a tree of the 156 example keys walks in order; the only faults are the keys that are not repo paths', async () => {
    const keys = fs.readFileSync(fixture('example_keys.txt'), 'utf8').split('\n').filter(Boolean)
    assert.equal(keys.length, 156)
    const value = block(post('x')).cid
    const mst = buildMst(keys.map((key) => ({ key, value })))
    const c = commitBlock({ data: mst.root, key: keyPair('k256') })
    const { summary, entries } = await check(await carBytes([c.cid], [c, ...mst.blocks, block(post('x'))]))
    assert.deepEqual(entries.map((e) => e.path), [...keys].sort())
    assert.deepEqual(Object.keys(summary.faultsByRule), ['mst-repo-path'])
    assert.equal(summary.faultsByRule['mst-repo-path'], 156, 'A0/374913 and the like: "A0" is not an NSID')
    assert.ok(summary.mst.nodes > 1 && summary.mst.height !== null && summary.mst.height >= 1)
  })

  it('a tree of 400 records with empty intermediate nodes passes, and lists in key order', async () => {
    const keys = postKeys(400)
    const repo = await buildRepo(keys.map((key, i) => ({ key, value: post(`post ${i}`) })))
    const { summary, entries } = await check(repo.car)
    assert.deepEqual(summary.faults, [])
    assert.equal(summary.result, 'ok')
    assert.deepEqual(entries.map((e) => e.path), [...keys].sort())
    assert.equal(summary.mst.nodes, repo.mst.blocks.length)
    const heights = [...repo.mst.nodes.values()]
    assert.ok(heights.some((n) => n.value.e.length === 0 && n.value.l !== null), 'the tree has an empty intermediate node, which is allowed')
  })

  describe('planted faults, each reported under its rule with the node and the key', () => {
    const signer = keyPair('k256')
    /** One node at height 0 holding `entries` as given (order, keys) as the MST root. @param {{ key: string, value?: any }[]} entries */
    async function rootOnly (entries, { left = null } = {}) {
      const records = entries.map((e) => ({ key: e.key, block: block(e.value ?? post(e.key)) }))
      const root = block(nodeValue({ left, entries: records.map((r) => ({ key: r.key, value: r.block.cid })) }))
      const c = commitBlock({ data: root.cid, key: signer })
      return { car: await carBytes([c.cid], [c, root, ...records.map((r) => r.block)]), root }
    }
    const [k1, k2, k3] = postKeys(3, (h) => h === 0)

    it('keys swapped inside a node: mst-key-order', async () => {
      const { car, root } = await rootOnly([{ key: k1 }, { key: k3 }, { key: k2 }])
      const { summary } = await check(car)
      assert.deepEqual(summary.faults.map((f) => [f.rule, f.node, f.key]), [['mst-key-order', root.cid.toString(), k2]])
      assert.match(summary.faults[0].message, new RegExp(`does not sort after ${k3}`))
      assert.equal(summary.result, 'faults')
    })

    it('a key at the wrong height: mst-key-height', async () => {
      const [low] = postKeys(1, (h) => h === 0)
      const [high] = postKeys(1, (h) => h === 1)
      const others = postKeys(6, (h) => h === 0).filter((k) => k !== low)
      // the builder believes `low` has height 1, so it sits in the root beside `high`
      const repo = await buildRepo([low, high, ...others].map((key) => ({ key, value: post(key) })), { height: (k) => (k === low ? 1 : heightOf(k)) })
      const { summary } = await check(repo.car)
      const rootId = repo.mst.root.toString()
      assert.deepEqual(summary.faults.map((f) => [f.rule, f.node, f.key]), [['mst-key-height', rootId, low]])
      assert.match(summary.faults[0].message, /height is 0 .* node of height 1/)
    })

    it('a subtree under a height-0 node: mst-subtree-height', async () => {
      const leaf = block(nodeValue({ entries: [{ key: k1, value: block(post('a')).cid }] }))
      const records = [k2, k3].map((key) => ({ key, block: block(post(key)) }))
      const root = block(nodeValue({ entries: records.map((r, i) => ({ key: r.key, value: r.block.cid, tree: i === 1 ? leaf.cid : null })) }))
      const c = commitBlock({ data: root.cid, key: signer })
      const { summary } = await check(await carBytes([c.cid], [c, root, leaf, block(post('a')), ...records.map((r) => r.block)]))
      assert.ok(summary.faults.some((f) => f.rule === 'mst-subtree-height' && f.node === root.cid.toString()), JSON.stringify(summary.faults))
      assert.ok(summary.faults.some((f) => f.rule === 'mst-key-order' && f.key === k1), 'k1 sorts before k3, under which it is linked')
    })

    it('a prefix length shorter than the shared prefix: mst-prefix', async () => {
      const records = [k1, k2].map((key) => ({ key, block: block(post(key)) }))
      const value = nodeValue({ entries: records.map((r) => ({ key: r.key, value: r.block.cid })) })
      value.e[1] = { ...value.e[1], p: 3, k: enc.encode(k2.slice(3)) }
      const root = block(value)
      const c = commitBlock({ data: root.cid, key: signer })
      const { summary } = await check(await carBytes([c.cid], [c, root, ...records.map((r) => r.block)]))
      assert.deepEqual(summary.faults.map((f) => [f.rule, f.node, f.key]), [['mst-prefix', root.cid.toString(), k2]])
    })

    it('an empty leaf node, and a root that only links a subtree', async () => {
      const empty = block({ l: null, e: [] })
      const [h1] = postKeys(1, (h) => h === 1)
      const r1 = block(post(h1))
      const top = block(nodeValue({ entries: [{ key: h1, value: r1.cid, tree: empty.cid }] }))
      const c = commitBlock({ data: top.cid, key: signer })
      const one = await check(await carBytes([c.cid], [c, top, empty, r1]))
      assert.deepEqual(one.summary.faults.map((f) => [f.rule, f.node]), [['mst-empty-node', empty.cid.toString()]])

      const sub = block(nodeValue({ entries: [{ key: h1, value: r1.cid }] }))
      const unpruned = block({ l: sub.cid, e: [] })
      const c2 = commitBlock({ data: unpruned.cid, key: signer })
      const two = await check(await carBytes([c2.cid], [c2, unpruned, sub, r1]))
      assert.deepEqual(two.summary.faults.map((f) => [f.rule, f.node]), [['mst-root-not-pruned', unpruned.cid.toString()]])
    })

    it('a node linked twice is entered once: mst-node-linked-twice', async () => {
      const [h1a, h1b] = postKeys(2, (h) => h === 1)
      const leaf = block(nodeValue({ entries: [{ key: k1, value: block(post('a')).cid }] }))
      const r = [h1a, h1b].map((key) => ({ key, block: block(post(key)) }))
      const root = block(nodeValue({ entries: r.map((x) => ({ key: x.key, value: x.block.cid, tree: leaf.cid })) }))
      const c = commitBlock({ data: root.cid, key: signer })
      const { summary } = await check(await carBytes([c.cid], [c, root, leaf, block(post('a')), ...r.map((x) => x.block)]))
      assert.ok(summary.faults.some((f) => f.rule === 'mst-node-linked-twice' && f.node === leaf.cid.toString()), JSON.stringify(summary.faults))
    })

    it('a node that is not an MST node: mst-node-schema', async () => {
      const bad = block({ l: null, e: [{ p: 0, k: enc.encode(k1), v: block(post('a')).cid }] }) // no "t"
      const c = commitBlock({ data: bad.cid, key: signer })
      const { summary } = await check(await carBytes([c.cid], [c, bad]))
      assert.deepEqual(summary.faults.map((f) => [f.rule, f.node]), [['mst-node-schema', bad.cid.toString()]])
      assert.match(summary.faults[0].message, /entry 0 has no "t"/)
    })

    it('a key that is not a repo path (path traversal): mst-repo-path', async () => {
      const evil = 'app.bsky.feed.post/../../x'
      const repo = await buildRepo([{ key: evil, value: post('x') }, { key: k1, value: post('y') }])
      const { summary, entries } = await check(repo.car)
      const holder = entries.find((e) => e.path === evil)?.node
      assert.deepEqual(summary.faults.map((f) => [f.rule, f.node, f.key]), [['mst-repo-path', holder, evil]])
      assert.match(summary.faults[0].message, /has 3 slashes/)
    })
  })
})
