// StrykerJS mutation testing of lib/: `npm run test:mutation` (test/mutation/run.js runs
// `stryker run` with this file). test/README.md has the last score and the reasons below.

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'mocha',
  plugins: ['@stryker-mutator/mocha-runner'],
  mutate: ['lib/**/*.js'],
  mochaOptions: {
    // The specs that test lib/, fast targeted ones first (a mutant's run stops at its first
    // failing test). Left out: test/car-tool.spec.js (the CLI in bin/, through child processes:
    // slow, and bin/ is not mutated), test/browser-safe.spec.js (reads lib/'s source for
    // Node-only globals and imports, which no mutant adds), test/fuzz.spec.js (20,000 random
    // inputs, ~20 s instrumented, run for every mutant that survives the rest: it is there to
    // find new bugs, the specs here pin the rules) and test/package/ (the packed tarball).
    // test/limits.spec.js skips its wall-clock tests under Stryker.
    spec: [
      'test/encode.spec.js',
      'test/decode.spec.js',
      'test/key-order.spec.js',
      'test/writer.spec.js',
      'test/cid-decode.spec.js',
      'test/errors.spec.js',
      'test/cborg-options.spec.js',
      'test/safety.spec.js',
      'test/limits.spec.js',
      'test/conformance.spec.js',
      'test/differential.spec.js',
      'test/real-cars.spec.js'
    ]
  },
  // each mutant runs only the tests that reach it
  coverageAnalysis: 'perTest',
  // a re-run tests only mutants whose code or covering tests changed; the file is committed
  // so that a fresh clone's first run is incremental too
  incremental: true,
  incrementalFile: 'test/mutation/stryker-incremental.json',
  // the machine has 2 cores; raise with `npm run test:mutation -- --concurrency N`
  concurrency: 1,
  reporters: ['clear-text', 'progress', 'html'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  clearTextReporter: { allowColor: false, logTests: false },
  tempDirName: '.stryker-tmp',
  cleanTempDir: true
}
