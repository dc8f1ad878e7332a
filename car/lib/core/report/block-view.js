// Any block as DAG-JSON text, for a person to read (the web page's block view): DAG-CBOR (a
// non-canonical block through relaxed decode, marked so), DAG-JSON, dag-pb (its PBNode), raw and
// json; with its links as CID strings. @ipld/dag-json and @ipld/dag-pb come from #modules-now: in
// Node, loaded at the first call that needs them (lib/node/load-at-first-call-node.js).
import { dagJson, dagPb } from '#modules-now'
import * as codec from 'dag-cbor-fast'
import { CID } from 'multiformats/cid'
import { describeError, hasEscapedBytes } from '../check/classify.js'
import { sameBytes } from '../base/bytes.js'
import { linksOf, DAG_CBOR, DAG_JSON, DAG_PB, RAW } from '../graph/links.js'

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
  if (code === DAG_JSON) return dagJson().decode(bytes)
  if (code === DAG_PB) return dagPb().decode(bytes)
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
    } else if (code === DAG_JSON) value = dagJson().decode(bytes)
    else if (code === DAG_PB) value = dagPb().decode(bytes)
    else if (code === RAW) value = bytes
    else if (code === JSON_CODE) value = JSON.parse(utf8.decode(bytes))
    else return { json: '', relaxed: false, links: [], error: `codec 0x${code.toString(16)} is not one this tool reads (dag-cbor, dag-json, dag-pb, raw, json)` }
  } catch (err) {
    return { json: '', relaxed: false, links: [], error: `cannot decode this block: ${describeError(err)}` }
  }
  const links = (linksOf(code, bytes) ?? []).map(String)
  const exact = exactDagJson(value)
  if (exact.error !== null) return { json: '', relaxed: wasRelaxed, links, error: exact.error }
  return { json: exact.json, relaxed: wasRelaxed, links }
}

/**
 * A value as DAG-JSON text, only when @ipld/dag-json reads that text back as the same value (the
 * same DAG-CBOR encoding); else why not. DAG-JSON cannot say every value: a map whose only key is
 * "/" reads back as a link or as bytes, -0 is written as 0, text that is not valid UTF-8 has no
 * form; such text would mean something else, so none is given.
 *
 * @param {unknown} value
 * @returns {{ json: string, error: null } | { json: null, error: string }}
 */
export function exactDagJson (value) {
  const refused = (/** @type {string} */ why) => ({ json: null, error: `DAG-JSON cannot say this value exactly: ${why}` })
  if (hasEscapedBytes(value)) return refused('it holds text that is not valid UTF-8')
  const unsaid = unsaidInDagJson(value, '')
  if (unsaid !== null) return refused(unsaid)
  let json
  try {
    json = dagJson().encode(value)
  } catch (err) {
    return refused(describeError(err))
  }
  try {
    if (!sameBytes(codec.encode(dagJson().decode(json)), codec.encode(value))) return refused('@ipld/dag-json reads its DAG-JSON back as another value')
  } catch (err) {
    return refused(`@ipld/dag-json does not read its DAG-JSON back (${describeError(err)})`)
  }
  return { json: utf8.decode(json), error: null }
}

/**
 * The first thing in a value that DAG-JSON text would say as something else, with its path; null
 * if none found (exactDagJson's read-back check still has the last word). DAG-JSON writes a link
 * as {"/": "<CID>"} and bytes as {"/": {"bytes": "<base64>"}}: a map of the data in either shape
 * reads back as a link or bytes, or is refused.
 *
 * @param {unknown} v
 * @param {string} path
 * @returns {string | null}
 */
function unsaidInDagJson (v, path) {
  if (typeof v === 'number') return Object.is(v, -0) ? `-0 at ${path || 'the top'} (DAG-JSON writes it as 0)` : null
  if (v === null || typeof v !== 'object' || v instanceof Uint8Array || CID.asCID(v)) return null
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const found = unsaidInDagJson(v[i], `${path}/${i}`)
      if (found !== null) return found
    }
    return null
  }
  const map = /** @type {Record<string, unknown>} */ (v)
  const slash = map['/']
  const bytesForm = slash !== null && typeof slash === 'object' && !Array.isArray(slash) && !(slash instanceof Uint8Array) && !CID.asCID(slash) && Object.hasOwn(slash, 'bytes')
  if (Object.hasOwn(map, '/') && (typeof slash === 'string' || bytesForm)) {
    return `the map at ${path || 'the top'} has the key "/" holding ${bytesForm ? 'a map with the key "bytes"' : 'text'}, DAG-JSON's form for ${bytesForm ? 'bytes' : 'a link'}: read back, it is ${bytesForm ? 'bytes' : 'a link'}, or refused`
  }
  for (const key of Object.keys(map)) {
    const found = unsaidInDagJson(map[key], `${path}/${key}`)
    if (found !== null) return found
  }
  return null
}
