// Any block as DAG-JSON text, for a person to read (the web page's block view): DAG-CBOR (a
// non-canonical block through relaxed decode, marked so), DAG-JSON, dag-pb (its PBNode), raw and
// json; with its links as CID strings.
import * as dagJson from '@ipld/dag-json'
import * as dagPb from '@ipld/dag-pb'
import * as codec from 'dag-cbor-fast'
import { describeError } from './classify.js'
import { linksOf, DAG_CBOR, DAG_JSON, DAG_PB, RAW } from './links.js'

const JSON_CODE = 0x0200
const utf8 = new TextDecoder('utf-8', { fatal: true })

/**
 * @typedef {{ json: string, relaxed: boolean, links: string[], error?: string }} BlockJson
 *   json: DAG-JSON text ('' when the block cannot be read); relaxed: read through relaxed decode
 *   (a non-canonical DAG-CBOR block); links: the CIDs it links to; error: why it could not be read
 */

/**
 * A block's value, by its CID's codec (raw: its bytes).
 *
 * @param {import('multiformats').CID} cid
 * @param {Uint8Array} bytes
 * @param {boolean} [relaxed] DAG-CBOR through relaxed decode
 * @returns {unknown}
 */
export function decodeBlock (cid, bytes, relaxed = false) {
  const code = cid.code
  if (code === DAG_CBOR) return relaxed ? codec.decode(bytes, { relaxed: true }) : codec.decode(bytes)
  if (code === DAG_JSON) return dagJson.decode(bytes)
  if (code === DAG_PB) return dagPb.decode(bytes)
  if (code === RAW) return bytes
  if (code === JSON_CODE) return JSON.parse(utf8.decode(bytes))
  throw new Error(`codec 0x${code.toString(16)} is not one this tool reads (dag-cbor, dag-json, dag-pb, raw, json)`)
}

/**
 * @param {import('multiformats').CID} cid the block's CID (its codec says how to read it)
 * @param {Uint8Array} bytes
 * @param {{ relaxed?: boolean }} [options] relaxed (default true): a DAG-CBOR block strict decode
 *   rejects is read through relaxed decode, if that reads it
 * @returns {BlockJson}
 */
export function blockToJson (cid, bytes, { relaxed = true } = {}) {
  const code = cid.code
  /** @type {any} */
  let value
  let wasRelaxed = false
  try {
    if (code === DAG_CBOR) {
      try {
        value = codec.decode(bytes)
      } catch (strictErr) {
        if (!relaxed || /** @type {any} */ (strictErr)?.relaxable === false) throw strictErr
        try {
          value = codec.decode(bytes, { relaxed: true })
        } catch {
          throw strictErr
        }
        wasRelaxed = true
      }
    } else if (code === DAG_JSON) value = dagJson.decode(bytes)
    else if (code === DAG_PB) value = dagPb.decode(bytes)
    else if (code === RAW) value = bytes
    else if (code === JSON_CODE) value = JSON.parse(utf8.decode(bytes))
    else return { json: '', relaxed: false, links: [], error: `codec 0x${code.toString(16)} is not one this tool reads (dag-cbor, dag-json, dag-pb, raw, json)` }
  } catch (err) {
    return { json: '', relaxed: false, links: [], error: `cannot decode this block: ${describeError(err)}` }
  }
  let json
  try {
    json = utf8.decode(dagJson.encode(value))
  } catch (err) {
    return { json: '', relaxed: wasRelaxed, links: [], error: `its value has no DAG-JSON form: ${describeError(err)}` }
  }
  const links = (linksOf(code, bytes) ?? []).map(String)
  return { json, relaxed: wasRelaxed, links }
}
