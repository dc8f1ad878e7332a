// The tool's commands: `dag-cbor-car <command> ...`, one file each (as go-car's cmd/car has).
// Each module exports `run(argv) → Promise<exit status>` and is loaded only when its command runs.
// A first argument that is not a command name (a file, `-`, a flag, or nothing) means `verify`.

/** @type {Readonly<Record<string, () => Promise<{ run: (argv: string[]) => Promise<number> }>>>} */
export const COMMANDS = {
  verify: () => import('./verify.js').then(inCommandLine),
  repo: () => import('./repo.js').then(inCommandLine),
  inspect: () => import('./inspect.js').then(inCommandLine),
  ls: () => import('./ls.js').then(inCommandLine),
  roots: () => import('./roots.js').then(inCommandLine),
  export: () => import('./export.js').then(inCommandLine),
  import: () => import('./import.js').then(inCommandLine),
  'get-block': () => import('./get-block.js').then(inCommandLine),
  'get-dag': () => import('./get-dag.js').then(inCommandLine),
  filter: () => import('./filter.js').then(inCommandLine),
  diff: () => import('./diff.js').then(inCommandLine),
  version: () => import('./version.js'),
  help: () => import('./help.js')
}

/**
 * A command whose errors are in the command line's words (command-args.js, inCommandWords), whoever
 * runs it: the dispatcher (cli.js) or a worker process of a run over several files (many-child.js).
 *
 * @template {{ run: (argv: string[]) => Promise<number> }} T
 * @param {T} command
 * @returns {T}
 */
function inCommandLine (command) {
  return {
    ...command,
    run: (argv) => command.run(argv).catch(async (err) => {
      throw (await import('../node/command-args.js')).inCommandWords(err)
    })
  }
}

export const DEFAULT_COMMAND = 'verify'

/**
 * The command a mistyped word most likely meant: the closest name by edit distance, if at most 2
 * edits away (verfy, isnpect, get-blok), else one it starts (insp).
 *
 * @param {string} word
 * @returns {string | null}
 */
export function closestCommand (word) {
  let best = null
  let bestDistance = 3
  for (const name of Object.keys(COMMANDS)) {
    const d = editDistance(word, name)
    if (d < bestDistance) {
      best = name
      bestDistance = d
    }
  }
  return best ?? Object.keys(COMMANDS).find((name) => word.length >= 2 && name.startsWith(word)) ?? null
}

/**
 * Levenshtein distance, with a swap of two neighbours counted as one edit.
 *
 * @param {string} a
 * @param {string} b
 */
function editDistance (a, b) {
  /** @type {number[][]} */
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => i === 0 ? j : j === 0 ? i : 0))
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1))
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1)
    }
  }
  return d[a.length][b.length]
}
