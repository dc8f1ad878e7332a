// Measures one corpus in the engine running this file (Node, Bun or Deno; bench/engines/run.js
// starts it) and prints the result as one JSON line after RESULT_MARK.
//   <engine> bench/engines/child.js <corpus> <rounds> <roundMs> <warmMs> <quick: 0|1>
/* global Bun */
if (typeof globalThis.gc !== 'function' && typeof Bun !== 'undefined') {
  // Bun has no V8 gc(); the harness's untimed collection between runs is Bun's own
  globalThis.gc = () => Bun.gc(false)
}
const { measureCorpus } = await import('./measure.js')
const [corpus, rounds, roundMs, warmMs, quick] = process.argv.slice(2)
const result = await measureCorpus(corpus, { rounds: +rounds, roundMs: +roundMs, warmMs: +warmMs, quick: quick === '1' })
console.log('@@engine-result ' + JSON.stringify(result))
