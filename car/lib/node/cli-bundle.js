// What the packed package's bundle of the command holds (scripts/bundle.js; bin/dag-cbor-car.js
// loads it): the command, and the modules its threads and children run (bundle-roles.js). Each is
// loaded when it is run: a process runs one of them, and what it does not run costs nothing.

/** the command: bin/dag-cbor-car.js in the packed package */
export const cli = () => import('../commands/cli.js')

export { ROLES } from './bundle-roles.js'
