// What the packed package's bundle holds (scripts/bundle.js; bin/dag-cbor-car.js loads it):
// the command, and each module its code starts as a worker thread or a child process by the
// module's URL, by that file name (the bundle's launcher of that name, next to it, runs it). Each
// is loaded when it is run: a process runs one of them, and what it does not run costs nothing.

/** the command: bin/dag-cbor-car.js in the packed package */
export const cli = () => import('../commands/cli.js')

/** @type {Record<string, () => Promise<unknown>>} file name (in lib/node/) => its module */
export const ROLES = {
  'worker.js': () => import('./worker.js'), // run.js's worker threads (workers.js)
  'many-child.js': () => import('./many-child.js') // a many-file run's child processes (many.js)
}
