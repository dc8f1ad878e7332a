// The temporary files a run has open (output written atomically, a saved copy of standard input),
// apart from output.js so that the dispatcher's signal and exit handlers need only this file and
// node:fs: a run that writes no file loads nothing that writes one.
import fs from 'node:fs'

/** Temporary files not yet renamed or removed, for the signal and exit handlers. */
export const temporaryFiles = new Set()

/** Remove every temporary output file still pending. Synchronous: safe in 'exit' and signal handlers. */
export function removeTemporaryFiles () {
  for (const file of temporaryFiles) {
    try { fs.rmSync(file, { force: true }) } catch {}
  }
  temporaryFiles.clear()
}

/** @returns {string[]} temporary output files not yet renamed or removed */
export function pendingTemporaryFiles () {
  return [...temporaryFiles]
}
