// What a block's CID says about its content, checked for the codecs other than DAG-CBOR (which
// classify.js checks strictly): raw is any bytes; dag-pb, dag-json and json must decode as such
// (with @ipld/dag-pb, @ipld/dag-json, JSON.parse over fatal UTF-8). A codec this tool does not
// know is reported, not passed: its content was not checked, and a CID whose codec was damaged
// (0x71 becoming 0x51, say) still hashes right.
import * as dagPb from '@ipld/dag-pb'
import * as dagJson from '@ipld/dag-json'

const RAW = 0x55
const DAG_PB = 0x70
const DAG_JSON = 0x0129
const JSON_CODE = 0x0200
const utf8 = new TextDecoder('utf-8', { fatal: true })

/**
 * @param {number} code the CID's codec (not DAG-CBOR)
 * @param {Uint8Array} bytes
 * @returns {null | { content: 'invalid' | 'unknown', reason: string }} null: the bytes are what the codec says
 */
export function checkContent (code, bytes) {
  try {
    if (code === RAW) return null
    if (code === DAG_PB) dagPb.decode(bytes)
    else if (code === DAG_JSON) dagJson.decode(bytes)
    else if (code === JSON_CODE) JSON.parse(utf8.decode(bytes))
    else return { content: 'unknown', reason: `codec 0x${code.toString(16)} is not one this tool knows (dag-cbor, raw, dag-pb, dag-json, json), so its content was not checked` }
    return null
  } catch (err) {
    return { content: 'invalid', reason: `not valid ${code === DAG_PB ? 'dag-pb' : code === DAG_JSON ? 'dag-json' : 'json'}, as its CID says it is (${String(/** @type {any} */ (err)?.message ?? err).split('\n')[0]})` }
  }
}
