// What a block's CID says about its content, checked for the codecs other than DAG-CBOR (which
// classify.js checks strictly): raw is any bytes; dag-pb, dag-json and json must decode as such
// (with @ipld/dag-pb, @ipld/dag-json, JSON.parse over fatal UTF-8). A codec this tool does not
// know is reported, not passed: its content was not checked, and a CID whose codec was damaged
// (0x71 becoming 0x51, say) still hashes right. @ipld/dag-pb and @ipld/dag-json are taken by
// loadCodec when the first block of theirs is met (on-demand.js), from #modules-now: in Node
// loaded then, not at start-up (lib/node/load-at-first-call-node.js, the one way Node loads them).
import { NotLoadedError } from '../base/errors.js'
import { dagJson as dagJsonNow, dagPb as dagPbNow } from '#modules-now'

const RAW = 0x55
const DAG_PB = 0x70
const DAG_JSON = 0x0129
const JSON_CODE = 0x0200
const utf8 = new TextDecoder('utf-8', { fatal: true })

/** @type {{ decode: (bytes: Uint8Array) => unknown } | null} */
let dagPb = null
/** @type {{ decode: (bytes: Uint8Array) => unknown } | null} */
let dagJson = null
/** @type {Map<number, Promise<void>>} */
const loading = new Map()

/**
 * Load the decoder checkContent needs for `code`; resolves at once for a codec that needs none.
 *
 * @param {number} code the CID's codec
 * @returns {Promise<void>}
 */
export function loadCodec (code) {
  if (!codecMissing(code)) return Promise.resolve()
  let load = loading.get(code)
  if (!load) {
    load = Promise.resolve().then(() => {
      if (code === DAG_PB) dagPb = dagPbNow()
      else dagJson = dagJsonNow()
    })
    loading.set(code, load)
  }
  return load
}

/**
 * Does checking a block of `code` wait for loadCodec?
 *
 * @param {number} code the CID's codec
 */
export function codecMissing (code) {
  return (code === DAG_PB && dagPb === null) || (code === DAG_JSON && dagJson === null)
}

/**
 * @param {number} code the CID's codec (not DAG-CBOR)
 * @param {Uint8Array} bytes
 * @returns {null | { content: 'invalid' | 'unknown', reason: string }} null: the bytes are what the codec says
 */
export function checkContent (code, bytes) {
  if (codecMissing(code)) throw new NotLoadedError('codec', code) // on-demand.js loads it and checks again
  try {
    if (code === RAW) return null
    if (code === DAG_PB) /** @type {NonNullable<typeof dagPb>} */ (dagPb).decode(bytes)
    else if (code === DAG_JSON) /** @type {NonNullable<typeof dagJson>} */ (dagJson).decode(bytes)
    else if (code === JSON_CODE) JSON.parse(utf8.decode(bytes))
    else return { content: 'unknown', reason: `codec 0x${code.toString(16)} is not one this tool knows (dag-cbor, raw, dag-pb, dag-json, json), so its content was not checked` }
    return null
  } catch (err) {
    return { content: 'invalid', reason: `not valid ${code === DAG_PB ? 'dag-pb' : code === DAG_JSON ? 'dag-json' : 'json'}, as its CID says it is (${String(/** @type {any} */ (err)?.message ?? err).split('\n')[0]})` }
  }
}
