// The modules the bundled code starts as a worker thread or a child process by the module's URL,
// by file name: scripts/bundle.js writes a launcher of that name next to each bundle, which runs
// the module out of that bundle (bin/dag-cbor-car.js), so a thread or child runs the build its
// parent runs.

/** @type {Record<string, () => Promise<unknown>>} file name (in lib/node/) => its module */
export const ROLES = {
  'worker.js': () => import('./worker.js'), // run.js's worker threads (workers.js)
  'many-child.js': () => import('./many-child.js') // a many-file run's child processes (many.js)
}
