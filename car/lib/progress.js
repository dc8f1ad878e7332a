// Progress line on stderr (TTY only): blocks, MB, MB/s, and, when the input's size is known, a bar,
// a percentage and an ETA. From a pipe the size is unknown: no bar, no percentage, no ETA.

/**
 * @param {{ total: number | undefined, stream?: NodeJS.WriteStream, intervalMs?: number }} options
 */
export function createProgress ({ total, stream = process.stderr, intervalMs = 100 }) {
  const enabled = !!stream.isTTY
  const start = performance.now()
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
      const now = performance.now()
      if (now - last < intervalMs) return
      last = now
      const line = progressLine({ blocks, bytes, total, seconds: (now - start) / 1000, label })
      stream.write(`\r${line.slice(0, (stream.columns || 100) - 1)}\x1b[K`)
      shown = true
    },
    done () {
      if (enabled && shown) stream.write('\r\x1b[K')
      shown = false
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
