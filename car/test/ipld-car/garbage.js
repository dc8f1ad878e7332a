// @ipld/garbage's garbage(), from the ipld-garbage package this repository has (its earlier name),
// whose CIDs are multiformats 9's: each made this multiformats' CID (CID.asCID takes the old form),
// as @ipld/garbage, on the multiformats the tests use, makes them.
import { garbage as old } from 'ipld-garbage'
import { CID } from 'multiformats/cid'

/** @param {any} value @returns {any} */
function current (value) {
  if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return value
  const cid = CID.asCID(value)
  if (cid) return CID.decode(cid.bytes.slice())
  if (Array.isArray(value)) return value.map(current)
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, current(v)]))
}

/** @param {number} [count] @param {any} [options] */
export const garbage = (count, options) => current(old(count, options))
