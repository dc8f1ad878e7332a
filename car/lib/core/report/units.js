// Sizes and rates in units that fit them, for the human summaries: 5.2 kB, 315 MB, 1.07 GB
// (decimal units, as `ls -h --si` and go-car's humanize print them), never "0.00 MB".

const UNITS = ['B', 'kB', 'MB', 'GB', 'TB']

/**
 * @param {number} bytes
 * @returns {string} three significant digits, e.g. 980 B, 5.21 kB, 315 MB, 1.07 GB
 */
export function humanBytes (bytes) {
  let unit = 0
  let n = bytes
  while (n >= 999.5 && unit < UNITS.length - 1) {
    n /= 1000
    unit++
  }
  if (unit === 0) return `${bytes} B`
  return `${n >= 99.95 ? n.toFixed(0) : n >= 9.995 ? n.toFixed(1) : n.toFixed(2)} ${UNITS[unit]}`
}

/**
 * @param {number} bytes
 * @param {number} seconds
 * @returns {string} e.g. 212 MB/s, 3.40 kB/s
 */
export function humanRate (bytes, seconds) {
  return seconds > 0 ? `${humanBytes(Math.round(bytes / seconds))}/s` : 'n/a'
}

/**
 * @param {number} seconds
 * @returns {string} e.g. 0.012 s, 1.49 s, 83 s
 */
export function humanSeconds (seconds) {
  return `${seconds < 0.1 ? seconds.toFixed(3) : seconds < 10 ? seconds.toFixed(2) : seconds.toFixed(0)} s`
}

/**
 * A size as the command line gives it: bytes, or with K/M/G (binary: KiB, MiB, GiB; "iB"/"B" optional).
 *
 * @param {string} text e.g. 4194304, 8M, 512KiB, 1G
 * @returns {number} NaN when it is not a size
 */
export function parseSize (text) {
  const m = /^(\d+)\s*([kmg]i?b?)?$/i.exec(text.trim())
  if (!m) return NaN
  const unit = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[(m[2] ?? '').charAt(0).toLowerCase()] ?? NaN
  return Number(m[1]) * unit
}
