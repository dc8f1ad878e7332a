// Before any test: rebuild lib/node/cli.bundle.cjs, lib/node/library.bundle.cjs and their code
// caches from the source (scripts/build-cli.js), so that the tests, which run bin/dag-cbor-car.js
// and import 'dag-cbor-car' as users do, run the bundles of the code as it is now and never ones
// left over from an earlier edit. Loaded by
// .mocharc.json, which mocha reads when it runs in car/ (npm test -w dag-cbor-car, npx mocha there).
import { buildCli } from '../scripts/build-cli.js'

export async function mochaGlobalSetup () {
  await buildCli()
}
