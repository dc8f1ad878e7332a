// Progress line on stderr (TTY only): blocks, MB, MB/s, and, when the input's size is known, a bar,
// a percentage and an ETA. From a pipe the size is unknown: no bar, no percentage, no ETA. Every
// command that reads a whole CAR draws it (verify here, the others through car-input.js; import over
// its JSON lines). Once drawn,
// the run ends it with the final counts, the same block count as its summary, and a newline.
import { mayBeTerminal } from './stdio.js'
import { now as clock } from '../core/base/clock.js'

/**
 * @param {{ total: number | undefined, stream?: NodeJS.WriteStream, intervalMs?: number, stdoutListing?: boolean }} options
 *   stdoutListing: the command writes its listing to stdout as it reads, so no line is drawn when
 *   stdout is the terminal too (it would be torn by the listing)
 */
export function createProgress ({ total, stream: given, intervalMs = 100, stdoutListing = false }) {
  // standard error is read only when it may be a terminal: reading it makes its stream (stdio.js)
  const stream = /** @type {NodeJS.WriteStream} */ (given ?? (mayBeTerminal(2) ? process.stderr : null))
  const enabled = !!stream?.isTTY && !(stdoutListing && process.stdout.isTTY)
  const start = clock()
  let last = 0
  let shown = false
  return {
    /**
     * @param {number} blocks
     * @param {number} bytes CAR bytes read so far
     * @param {string} [label] what is happening, after the first pass
     */
    update (blocks, bytes, label) {
      if (!enabled) return
      const now = clock()
      if (now - last < intervalMs) return
      last = now
      const line = progressLine({ blocks, bytes, total, seconds: (now - start) / 1000, label })
      stream.write(`\r${line.slice(0, (stream.columns || 100) - 1)}\x1b[K`)
      shown = true
    },
    /**
     * End the line: with the final counts (what the summary says) when it was drawn, and a newline;
     * without them (a run stopped by an error), clear it.
     *
     * @param {number} [blocks]
     * @param {number} [bytes]
     */
    done (blocks, bytes) {
      if (!enabled || !shown) return
      shown = false
      if (blocks === undefined || bytes === undefined) {
        stream.write('\r\x1b[K')
        return
      }
      const line = progressLine({ blocks, bytes, total, seconds: (clock() - start) / 1000 })
      stream.write(`\r${line.slice(0, (stream.columns || 100) - 1)}\x1b[K\n`)
    }
  }
}

/**
 * The progress line verify draws, for every command that reads the CAR's blocks: `car.blocks()`
 * counts the blocks it hands out, and ends the line with the final count when its loop ends (also
 * when a command stops early, as get-block does at its block); cleared when reading fails.
 *
 * @param {import('../core/read/open-car.js').Car} car
 * @param {ReturnType<typeof createProgress>} progress
 */
export function drawProgress (car, progress) {
  const blocks = car.blocks.bind(car)
  car.blocks = async function * countedBlocks () {
    let count = 0
    let failed = false
    try {
      for await (const block of blocks()) {
        count++
        progress.update(count, car.position())
        yield block
      }
    } catch (err) {
      failed = true
      throw err
    } finally {
      if (failed) progress.done()
      else progress.done(count, car.position())
    }
  }
}

/**
 * @param {{ blocks: number, bytes: number, total: number | undefined, seconds: number, label?: string }} p
 * @returns {string}
 */
export function progressLine ({ blocks, bytes, total, seconds, label }) {
  if (label) return `${label}  ${blocks} blocks`
  const rate = seconds > 0 ? bytes / 1e6 / seconds : 0
  const counts = `${blocks} blocks  ${(bytes / 1e6).toFixed(1)}${total ? `/${(total / 1e6).toFixed(1)}` : ''} MB  ${rate.toFixed(1)} MB/s`
  if (!total) return counts // size unknown (a pipe): no percentage, no ETA
  const frac = Math.min(1, bytes / total)
  const eta = rate > 0 ? Math.max(0, (total - bytes) / 1e6 / rate) : NaN
  const width = 24
  const filled = Math.round(frac * width)
  const bar = '#'.repeat(filled) + '-'.repeat(width - filled)
  return `[${bar}] ${(frac * 100).toFixed(0).padStart(3)}%  ${counts}  ETA ${Number.isFinite(eta) ? `${eta.toFixed(0)} s` : '?'}`
}
