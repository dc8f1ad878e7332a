// dag-cbor-fast/lexicon generates no code at run time: compile, decode, validate, encode,
// toTypeScript, toJavaScript and the module it writes run, and `dag-cbor-car repo verify --lexicons` checks a repository, in a Node whose
// V8 refuses eval and new Function (--disallow-code-generation-from-strings, what a
// Content-Security-Policy without 'unsafe-eval' does in a page). The probe proves the refusal is in
// force. (Browsers run the codec's own smoke test under such a policy: test/engines/.)
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const NO_EVAL = '--disallow-code-generation-from-strings'
const url = (/** @type {string} */ p) => JSON.stringify(new URL(p, import.meta.url).href)

describe('dag-cbor-fast/lexicon: no code generated at run time', function () {
  this.timeout(60_000)
  it('the codecs, toTypeScript, toJavaScript and its module work where eval and new Function are refused', () => {
    const script = `
      import { compile, toTypeScript, toJavaScript } from ${url('../lib/lexicon/index.js')}
      import * as written from ${url('../bench/generated/lexicon-post.js')}
      import { publishedDocuments } from ${url('./helpers/lexicons.js')}
      import { encode } from ${url('../index.js')}
      let refused = false
      try { new Function('return 1') } catch (e) { refused = e instanceof EvalError }
      const lexicons = compile(publishedDocuments())
      const post = lexicons.record('app.bsky.feed.post')
      const bytes = encode({ $type: 'app.bsky.feed.post', text: 'hello', createdAt: '2024-01-01T00:00:00Z', langs: ['en'] })
      post.validate(bytes)
      const same = post.encode(post.decode(bytes)).every((b, i) => b === bytes[i])
      let rule = null
      try { post.validate(encode({ $type: 'app.bsky.feed.post', text: 'x'.repeat(301), createdAt: '2024-01-01T00:00:00Z' })) } catch (e) { rule = e.rule }
      const aot = written.decode('app.bsky.feed.post', bytes).text === 'hello' && toJavaScript(publishedDocuments(), { records: ['app.bsky.feed.post'] }).includes('export function decode ')
      console.log(JSON.stringify({ refused, text: post.decode(bytes).text, same, rule, types: toTypeScript(publishedDocuments()).includes('export interface AppBskyFeedPost '), aot }))`
    const r = spawnSync(process.execPath, [NO_EVAL, '--input-type=module', '-e', script], { encoding: 'utf8' })
    assert.equal(r.status, 0, r.stderr)
    assert.deepEqual(JSON.parse(r.stdout), { refused: true, text: 'hello', same: true, rule: 'lexicon-max-graphemes', types: true, aot: true })
  })

  it('dag-cbor-car repo verify --lexicons checks a repository there', () => {
    const bin = fileURLToPath(new URL('../car/bin/dag-cbor-car.js', import.meta.url))
    const car = fileURLToPath(new URL('../car/test/fixtures/atproto/repo-small-v2.car', import.meta.url))
    const lexicons = fileURLToPath(new URL('./fixtures/lexicons', import.meta.url))
    const r = spawnSync(process.execPath, [NO_EVAL, bin, 'repo', 'verify', car, '--lexicons', lexicons], { encoding: 'utf8' })
    assert.equal(r.status, 0, r.stdout + r.stderr)
    assert.match(r.stdout, /^lexicons {4}\d+ record types given; records 6 valid, 0 invalid, 0 not checked$/m)
  })
})
