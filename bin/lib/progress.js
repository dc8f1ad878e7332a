// Progress line on stderr (TTY only): blocks, MB, MB/s, ETA from the input size. Silent otherwise.

/**
 * @param {{ total: number, stream?: NodeJS.WriteStream, intervalMs?: number }} options
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
     */
    update (blocks, bytes) {
      if (!enabled) return
      const now = performance.now()
      if (now - last < intervalMs) return
      last = now
      const secs = (now - start) / 1000
      const rate = secs > 0 ? bytes / 1e6 / secs : 0
      const frac = total > 0 ? Math.min(1, bytes / total) : 0
      const eta = rate > 0 && total > 0 ? Math.max(0, (total - bytes) / 1e6 / rate) : NaN
      const width = 24
      const filled = Math.round(frac * width)
      const bar = '#'.repeat(filled) + '-'.repeat(width - filled)
      const line = `[${bar}] ${(frac * 100).toFixed(0).padStart(3)}%  ${blocks} blocks  ${(bytes / 1e6).toFixed(1)}/${(total / 1e6).toFixed(1)} MB  ${rate.toFixed(1)} MB/s  ETA ${Number.isFinite(eta) ? `${eta.toFixed(0)} s` : '?'}`
      stream.write(`\r${line.slice(0, (stream.columns || 100) - 1)}\x1b[K`)
      shown = true
    },
    done () {
      if (enabled && shown) stream.write('\r\x1b[K')
    }
  }
}
