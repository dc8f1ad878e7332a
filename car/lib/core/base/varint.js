// The unsigned varints of a section's CID (version, codec, hash code, digest size), read in the
// batch loops without an object per value: uvarint returns the value and leaves where it stopped
// in `varintEnd`, which the caller reads next.

/** where the last uvarint() stopped reading */
export let varintEnd = 0

/**
 * The unsigned varint at bytes[at] (at most 4 bytes, in its shortest form), reading no further than
 * `end`; -1 for anything else, which the callers hand to multiformats' CID reader or check again.
 *
 * @param {Uint8Array} bytes
 * @param {number} at
 * @param {number} end
 */
export function uvarint (bytes, at, end) {
  let value = 0
  let scale = 1
  for (let i = 0; i < 4 && at < end; i++) {
    const b = bytes[at++]
    value += (b & 0x7f) * scale
    if (b < 0x80) {
      varintEnd = at
      return b === 0 && i > 0 ? -1 : value
    }
    scale *= 128
  }
  varintEnd = at
  return -1
}

/** @param {number} n @returns {Uint8Array} n as an unsigned LEB128 varint */
export function varintBytes (n) {
  const out = []
  while (n >= 0x80) { out.push((n % 0x80) | 0x80); n = Math.floor(n / 0x80) }
  out.push(n)
  return Uint8Array.from(out)
}
