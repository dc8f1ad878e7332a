// Output checks run before timing: data-model equality and byte equality.
import { CID } from 'multiformats/cid'

const hex = (b, from, to) => Array.from(b.subarray(Math.max(0, from), Math.min(b.length, to)), (x) => x.toString(16).padStart(2, '0')).join('')

/** null when equal, else a short description of the first difference. */
export function bytesDiff (actual, expected) {
  const n = Math.min(actual.length, expected.length)
  let i = 0
  while (i < n && actual[i] === expected[i]) i++
  if (i === n && actual.length === expected.length) return null
  return `at byte ${i} (lengths ${actual.length} vs ${expected.length}): got ${hex(actual, i - 2, i + 10)}.. want ${hex(expected, i - 2, i + 10)}..`
}

function kind (v) {
  if (v === null) return 'null'
  if (typeof v !== 'object') return typeof v
  if (CID.asCID(v)) return 'CID'
  if (v instanceof Uint8Array) return 'bytes'
  if (Array.isArray(v)) return 'list'
  return 'map'
}

const show = (v) => {
  try {
    const s = typeof v === 'bigint' ? v + 'n' : typeof v === 'string' ? JSON.stringify(v) : String(v)
    return s.length > 40 ? s.slice(0, 40) + '..' : s
  } catch { return '?' }
}

/** null when a and b are the same IPLD data-model value, else a path + description. */
export function valueDiff (a, b, path = '') {
  const ka = kind(a)
  const kb = kind(b)
  if (ka !== kb) return `${path || '/'}: ${ka} ${show(a)} vs ${kb} ${show(b)}`
  switch (ka) {
    case 'CID': return CID.asCID(a).equals(CID.asCID(b)) ? null : `${path || '/'}: CID ${a} vs ${b}`
    case 'bytes': {
      const d = bytesDiff(a, b)
      return d ? `${path || '/'}: bytes differ ${d}` : null
    }
    case 'list': {
      if (a.length !== b.length) return `${path || '/'}: list length ${a.length} vs ${b.length}`
      for (let i = 0; i < a.length; i++) {
        const d = valueDiff(a[i], b[i], `${path}/${i}`)
        if (d) return d
      }
      return null
    }
    case 'map': {
      const ak = Object.keys(a)
      const bk = Object.keys(b)
      if (ak.length !== bk.length) return `${path || '/'}: map size ${ak.length} vs ${bk.length}`
      for (const k of ak) {
        if (!Object.hasOwn(b, k)) return `${path || '/'}: key ${JSON.stringify(k)} missing`
        const d = valueDiff(a[k], b[k], `${path}/${k}`)
        if (d) return d
      }
      return null
    }
    default:
      return Object.is(a, b) ? null : `${path || '/'}: ${show(a)} vs ${show(b)}`
  }
}

/**
 * How many of an encoder's results do not own exactly their memory (a view at an offset of a
 * buffer, or of a buffer longer than itself: a shared pool, or an over-sized chunk), and how many
 * buffers they are views of: as many as results when each has an over-sized chunk of its own,
 * fewer when they share one.
 *
 * @param {Uint8Array[]} results
 * @returns {{ views: number, buffers: number }}
 */
export function viewsOf (results) {
  const buffers = new Set()
  let views = 0
  for (const r of results) {
    if (r.byteOffset === 0 && r.buffer.byteLength === r.byteLength) continue
    views++
    buffers.add(r.buffer)
  }
  return { views, buffers: buffers.size }
}
