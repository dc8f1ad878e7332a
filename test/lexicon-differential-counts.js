// The counts of the differential run of test/lexicon-differential.spec.js: records, mutations, the
// rules broken, and per peer the cases compared, agreed and disagreed, and how many cases each
// known disagreement settled. Run: node test/lexicon-differential-counts.js
import { runDifferential, DISAGREEMENTS } from './helpers/lexicon-differential.js'

const { counts, findings } = await runDifferential()
console.log(`record types ${counts.recordTypes}, generated records ${counts.records}, mutations ${counts.mutations}, real records ${counts.realRecords}, interop format lines ${counts.formatLines}`)
console.log(`rules broken: ${Object.entries(counts.rules).map(([rule, n]) => `${rule} ${n}`).join(', ')}`)
for (const [peer, c] of Object.entries(counts.peers)) {
  console.log(`${peer}: compared ${c.compared}, agreed with the spec ${c.agreed}, disagreed ${c.disagreed}${c.notCompared ? `, not compared ${c.notCompared} (no schema of the type)` : ''}`)
}
DISAGREEMENTS.forEach((d, i) => console.log(`  ${Object.entries(counts.disagreements[i]).map(([peer, n]) => `${peer} ${n}`).join(', ')}: ${d.name}`))
console.log(`findings (verdicts other than the spec's and the table's): ${findings.length}`)
