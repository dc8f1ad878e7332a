// Where a block links: the CIDs it names, found in its bytes. DAG-CBOR links are read by walking
// the bytes (cbor-walk.js: no values built, and non-canonical blocks walk too); dag-pb (UnixFS) and
// DAG-JSON blocks are decoded; raw and JSON blocks have none. Other codecs are not read: callers
// count such blocks, so a report never claims a DAG is complete when some links went unseen.
import { dagJson, dagPb } from '#modules-now' // in Node loaded at their first use (lib/node/load-at-first-call-node.js)
import { CID } from 'multiformats/cid'
import { scanLinks } from './cbor-walk.js'
import { toHex } from '../base/bytes.js'

export const DAG_CBOR = 0x71
export const RAW = 0x55
export const DAG_JSON = 0x0129
export const DAG_PB = 0x70
const JSON_CODE = 0x0200

/**
 * @callback OnLink
 * @param {Uint8Array} bytes holds the link's CID bytes in [start, end)
 * @param {number} start
 * @param {number} end
 * @returns {void}
 */

/**
 * Call `onLink` for each link in a block, in the order they appear.
 *
 * @param {number} code the block's codec
 * @param {Uint8Array} bytes the block
 * @param {OnLink} onLink
 * @returns {boolean} false when this codec's links are not read
 */
export function forEachLink (code, bytes, onLink) {
  if (code === DAG_CBOR) {
    // a tag 42 byte string holds 0x00 (the multibase identity prefix), then the CID's bytes
    scanLinks(bytes, 0, bytes.length, (start, end) => { onLink(bytes, start + 1, end) })
    return true
  }
  if (code === RAW || code === JSON_CODE) return true
  if (code === DAG_PB) {
    let node
    try {
      node = dagPb().decode(bytes)
    } catch {
      return true // not dag-pb at all (verify reports it): it names nothing we can follow
    }
    for (const link of node.Links) onLink(link.Hash.bytes, 0, link.Hash.bytes.length)
    return true
  }
  if (code === DAG_JSON) {
    let value
    try {
      value = dagJson().decode(bytes)
    } catch {
      return true // not DAG-JSON at all: it names nothing we can follow
    }
    eachCid(value, (cid) => onLink(cid.bytes, 0, cid.bytes.length))
    return true
  }
  return false
}

/**
 * The links of a block as CIDs (a link whose bytes are not a CID is left out: the block is then
 * invalid, which the classification reports).
 *
 * @param {number} code @param {Uint8Array} bytes
 * @returns {CID[] | null} null when this codec's links are not read
 */
export function linksOf (code, bytes) {
  /** @type {CID[]} */
  const out = []
  const read = forEachLink(code, bytes, (b, start, end) => {
    try { out.push(CID.decode(b.subarray(start, end))) } catch {}
  })
  return read ? out : null
}

/**
 * @param {any} value
 * @param {(cid: CID) => void} visit
 */
function eachCid (value, visit) {
  const stack = [value]
  while (stack.length) {
    const v = stack.pop()
    const cid = CID.asCID(v)
    if (cid) visit(cid)
    else if (Array.isArray(v)) for (let i = v.length - 1; i >= 0; i--) stack.push(v[i])
    else if (v && typeof v === 'object' && !(v instanceof Uint8Array)) for (const k of Object.keys(v).reverse()) stack.push(v[k])
  }
}

/**
 * A CID as text; bytes that are not a CID as hex (a malformed link in an invalid block).
 *
 * @param {Uint8Array} bytes
 */
export function cidText (bytes) {
  try {
    return CID.decode(bytes).toString()
  } catch {
    return `0x${toHex(bytes)} (not a CID)`
  }
}
