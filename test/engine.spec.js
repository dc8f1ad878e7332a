// lib/engine.js: each engine flag is true in its own engine only. In Node (V8) both are false;
// test/engines/smoke.test.js checks them in Bun (JavaScriptCore), Firefox (SpiderMonkey), Chromium
// and Deno (V8).
import assert from 'node:assert/strict'
import { SPIDERMONKEY, JAVASCRIPTCORE } from '../lib/engine.js'

describe('engine', () => {
  it('Node runs on V8: neither SpiderMonkey nor JavaScriptCore', () => {
    assert.ok(typeof process.versions.v8 === 'string')
    assert.equal(SPIDERMONKEY, false)
    assert.equal(JAVASCRIPTCORE, false)
  })
})
