// The block size limits (--max-block-size) and how messages write them, apart from read.js so that
// parsing a command's options loads no CAR reader.

/** Largest block accepted by default (--max-block-size raises it). Real CARs stay well below 2 MiB. */
export const DEFAULT_MAX_BLOCK_SIZE = 4 * 1024 * 1024
/** Largest --max-block-size accepted. */
export const MAX_MAX_BLOCK_SIZE = 1024 * 1024 * 1024

/** @param {number} n */
export function bytesText (n) {
  if (n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`
  if (n % 1024 === 0) return `${n / 1024} KiB`
  return `${n} bytes`
}
