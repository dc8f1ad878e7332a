// Writes expected.json: what every golden case prints today. Run it only when a change to what
// the tool says is meant, and say so in the commit.
import fs from 'node:fs'
import { prepare, cases, runAll, RECORDING } from './cases.js'

const dir = prepare()
const results = await runAll(dir, cases())
/** @type {Record<string, unknown>} */
const expected = {}
for (const c of cases()) expected[c.name] = results[c.name]
fs.rmSync(dir, { recursive: true, force: true })
fs.writeFileSync(RECORDING, JSON.stringify(expected, null, 1) + '\n')
console.log(`${Object.keys(expected).length} cases recorded`)
