// The tool's commands: `dag-cbor-car <command> ...`, one file each (as go-car's cmd/car has).
// Each module exports `run(argv) → Promise<exit status>` and is loaded only when its command runs.
// A first argument that is not a command name (a file, `-`, a flag, or nothing) means `verify`.

/** @type {Readonly<Record<string, () => Promise<{ run: (argv: string[]) => Promise<number> }>>>} */
export const COMMANDS = {
  verify: () => import('./verify.js'),
  repo: () => import('./repo.js'),
  inspect: () => import('./inspect.js'),
  ls: () => import('./ls.js'),
  roots: () => import('./roots.js'),
  export: () => import('./export.js'),
  import: () => import('./import.js'),
  'get-block': () => import('./get-block.js'),
  'get-dag': () => import('./get-dag.js'),
  filter: () => import('./filter.js'),
  diff: () => import('./diff.js'),
  help: () => import('./help.js')
}

export const DEFAULT_COMMAND = 'verify'
