// lib/engine.js: each engine flag is true in its own engine only. In Node (V8) all are false;
// test/engines/smoke.test.js checks them in Bun (JavaScriptCore), Firefox (SpiderMonkey), Chromium
// and Deno (V8).
import assert from 'node:assert/strict'
import { SPIDERMONKEY, JAVASCRIPTCORE, DENO } from '../lib/engine.js'

describe('engine', () => {
  it('Node runs on V8: neither SpiderMonkey nor JavaScriptCore, and not Deno', () => {
    assert.ok(typeof process.versions.v8 === 'string')
    assert.equal(SPIDERMONKEY, false)
    assert.equal(JAVASCRIPTCORE, false)
    assert.equal(DENO, false)
  })
})
