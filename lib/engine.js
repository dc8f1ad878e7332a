// Which JavaScript engine runs the codec, for the few places where the fastest way to do
// something differs between engines (bench/README.md has the measurements). Each engine is
// recognised by a feature only it has, never by a user-agent string; V8 (Node, Chromium, Deno) is
// neither of these and takes the default way everywhere.

/** SpiderMonkey (Firefox): its non-standard `InternalError` global, which no other engine defines. */
export const SPIDERMONKEY = typeof (/** @type {any} */ (globalThis)).InternalError === 'function'

/** JavaScriptCore (Safari, Bun): its errors carry their source `line` as an own property. */
export const JAVASCRIPTCORE = typeof (/** @type {any} */ (new Error())).line === 'number'
