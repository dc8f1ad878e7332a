// Which JavaScript engine runs the codec, for the few places where the fastest way to do
// something differs between engines (bench/README.md has the measurements). Each engine is
// recognised by a feature only it has, never by a user-agent string; V8 (Node, Chromium, Deno) is
// neither of the first two and takes the default way everywhere; Deno's build of V8 differs from
// the others in one way that matters here (DENO below).

/** SpiderMonkey (Firefox): its non-standard `InternalError` global, which no other engine defines. */
export const SPIDERMONKEY = typeof (/** @type {any} */ (globalThis)).InternalError === 'function'

/** JavaScriptCore (Safari, Bun): its errors carry their source `line` as an own property. */
export const JAVASCRIPTCORE = typeof (/** @type {any} */ (new Error())).line === 'number'

/** Deno: its `Deno` global. Its V8 is built to allocate every typed array's memory outside the JS
 * heap, where Node's and Chromium's keep arrays of up to 64 bytes in the heap, so that there even a
 * small array of its own costs what a large one does. */
export const DENO = typeof (/** @type {any} */ (globalThis)).Deno?.version?.deno === 'string'
