// Measures one corpus in the engine running this file (Node, Bun or Deno; bench/engines/run.js
// starts it) and prints the result as one JSON line after RESULT_MARK.
//   <engine> bench/engines/child.js <corpus> <rounds> <roundMs> <warmMs> <quick: 0|1>
import { measureCorpus } from './measure.js'
const [corpus, rounds, roundMs, warmMs, quick] = process.argv.slice(2)
const result = await measureCorpus(corpus, { rounds: +rounds, roundMs: +roundMs, warmMs: +warmMs, quick: quick === '1' })
console.log('@@engine-result ' + JSON.stringify(result))
