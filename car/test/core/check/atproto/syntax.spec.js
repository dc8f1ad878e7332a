// Identifier syntax against the atproto interop test vectors (car/test/fixtures/atproto/*_syntax_*.txt).
import assert from 'node:assert/strict'
import { isNsid, isRecordKey, isTid, isDid, parseRepoPath } from '../../../../lib/core/check/atproto/syntax.js'
import { fixtureLines } from './helpers/fixtures.js'

/** @type {Array<[string, (s: string) => boolean]>} */
const KINDS = [['nsid', isNsid], ['recordkey', isRecordKey], ['tid', isTid], ['did', isDid]]

describe('atproto identifier syntax (interop vectors)', () => {
  for (const [kind, accepts] of KINDS) {
    it(`${kind}: accepts every valid and rejects every invalid example`, () => {
      const valid = fixtureLines(`${kind}_syntax_valid.txt`)
      const invalid = fixtureLines(`${kind}_syntax_invalid.txt`)
      assert.ok(valid.length >= 4 && invalid.length >= 4, 'the vector files were read')
      assert.deepEqual(valid.filter((s) => !accepts(s)), [], 'valid examples rejected')
      assert.deepEqual(invalid.filter((s) => accepts(s)), [], 'invalid examples accepted')
    })
  }

  it('repo paths: collection/rkey, exactly one slash, no traversal', () => {
    assert.deepEqual(parseRepoPath('app.bsky.feed.post/3jzfcijpj2z2a'), { collection: 'app.bsky.feed.post', rkey: '3jzfcijpj2z2a' })
    assert.deepEqual(parseRepoPath('app.bsky.actor.profile/self'), { collection: 'app.bsky.actor.profile', rkey: 'self' })
    for (const bad of ['app.bsky.feed.post/../../x', 'app.bsky.feed.post/..', '../app.bsky.feed.post/x', '/app.bsky.feed.post/x',
      'app.bsky.feed.post', 'app.bsky.feed.post/', 'app.bsky.feed.post/a/b', 'app.bsky.feed.post/a\\b', 'x/y', 'app.bsky.feed.post/a b']) {
      assert.ok('reason' in parseRepoPath(bad), `${bad} accepted`)
    }
  })
})
