// Check an AT Protocol repository export (a Bluesky "export my data" CAR): the signed commit, the
// Merkle Search Tree, every record; with the account's did:key, the commit's signature too.
//   node examples/atproto-repo.js repo.car [did:key:z...]
import { checkRepo } from 'dag-cbor-car'

const [file, didKey] = process.argv.slice(2)
if (!file) throw new Error('usage: node examples/atproto-repo.js repo.car [did:key:z...]')

const report = await checkRepo(file, { didKey })
const { commit, signature, records } = report
console.log(`${report.result}: ${commit?.did ?? 'no commit'}, commit version ${commit?.version ?? '?'}, ` +
  `signature ${signature.checked ? (signature.valid ? 'valid' : 'NOT valid') : 'not checked (no key given)'}`)
for (const [collection, count] of Object.entries(records.byCollection)) console.log(`  ${collection}: ${count} records`)
for (const fault of report.faults.slice(0, 5)) console.log(`  ${fault.rule}: ${fault.message}`)
process.exitCode = report.result === 'ok' ? 0 : 1
