// StrykerJS mutation testing of lib/: `npm run test:mutation` (test/mutation/run.js runs
// `stryker run` with this file). test/README.md has the last score and the reasons below.

import fs from 'node:fs'

/** Specs left out: self-contained (reads the tracked files, not lib/'s behaviour), browser-safe
 * (reads lib/'s source for Node-only globals and imports, which no mutant adds), fuzz (20,000
 * random inputs, ~20 s instrumented for every mutant that survives the rest: it is there to find
 * new bugs, the specs pin the rules). Only test/*.spec.js is read: the CAR tool's tests are in
 * car/test/ (its own package; the tool is not mutated), and test/package/ has no .spec.js. */
const LEFT_OUT = ['self-contained.spec.js', 'browser-safe.spec.js', 'fuzz.spec.js']
/** Specs run after the others: each takes seconds, or runs every fixture. */
const LAST = ['limits.spec.js', 'conformance.spec.js', 'differential.spec.js', 'real-cars.spec.js']

function specs () {
  return fs.readdirSync(new URL('./test/', import.meta.url))
    .filter((file) => file.endsWith('.spec.js') && !LEFT_OUT.includes(file))
    .sort((a, b) => LAST.indexOf(a) - LAST.indexOf(b) || (a < b ? -1 : 1))
    .map((file) => `test/${file}`)
}

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'mocha',
  plugins: ['@stryker-mutator/mocha-runner'],
  mutate: ['lib/**/*.js'],
  mochaOptions: {
    // every test/*.spec.js but LEFT_OUT, the slow ones last (a mutant's run stops at its first
    // failing test), so that a new spec file is in the mutation run without a config change
    spec: specs()
  },
  // each mutant runs only the tests that reach it
  coverageAnalysis: 'perTest',
  // a re-run tests only mutants whose code or covering tests changed; the file is committed
  // so that a fresh clone's first run is incremental too
  incremental: true,
  incrementalFile: 'test/mutation/stryker-incremental.json',
  // the machine has 2 cores; raise with `npm run test:mutation -- --concurrency N`
  concurrency: 1,
  // a fresh test process for every mutant: lib/ keeps state between calls (the encoder's
  // re-entrancy flag, the key-order and map-key caches, the writer's scratch buffer), and a
  // mutant that leaves it wrong changes the next mutants' results in the same process (seen:
  // after one that left the re-entrancy flag set, dropping out.reset() survived). Costs ~1.3 s
  // per mutant.
  maxTestRunnerReuse: 1,
  reporters: ['clear-text', 'progress', 'html'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  clearTextReporter: { allowColor: false, logTests: false },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true
}
