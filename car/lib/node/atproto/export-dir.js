// `repo export`: each record as DAG-JSON at DIR/<collection>/<rkey>.json. The names come from an
// untrusted CAR, so a name is used only when it is a valid NSID and a valid record key (neither can
// hold a slash, a backslash or be "." or ".."), the joined path must come out exactly as
// DIR/<collection>/<rkey>.json, DIR must be new or empty (nothing in it can be a planted symlink),
// and files are created exclusively (never overwritten, never followed through a symlink).
import fs from 'node:fs'
import path from 'node:path'
import { exactDagJson } from '../../core/report/block-view.js'
import { ToolError, systemReason } from '../../core/base/errors.js'
import { isNsid, isRecordKey } from '../../core/check/atproto/syntax.js'

// Names Windows gives special meaning to, whatever the extension: refused there. COM¹ to COM³ and
// LPT¹ to LPT³ are written as escapes: the bundle stays ASCII, which V8 holds in one byte a character.
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3])(\..*)?$/i

/**
 * @param {string} dir
 * @param {string} [platform]
 */
export function createExporter (dir, platform = process.platform) {
  try {
    const entries = fs.readdirSync(dir)
    if (entries.length > 0) throw new ToolError(`--out ${dir} is not empty; give a new or empty directory`)
  } catch (err) {
    if (err instanceof ToolError) throw err
    if (/** @type {any} */ (err)?.code !== 'ENOENT') throw new ToolError(`cannot use --out ${dir}: ${systemReason(err)}`)
    try {
      fs.mkdirSync(dir, { recursive: true })
    } catch (mkdirErr) {
      throw new ToolError(`cannot create --out ${dir}: ${systemReason(mkdirErr)}`)
    }
  }
  const root = fs.realpathSync(dir)
  /** @type {Set<string>} */
  const made = new Set()
  let written = 0

  /**
   * Write one record; null when written, else why not (the record is then refused).
   *
   * @param {string | null} collection
   * @param {string | null} rkey
   * @param {unknown} value
   * @returns {string | null}
   */
  function write (collection, rkey, value) {
    if (collection === null || rkey === null || !isNsid(collection) || !isRecordKey(rkey)) return 'the key is not a valid <collection>/<record key> path'
    if (platform === 'win32' && (rkey.includes(':') || WINDOWS_DEVICE.test(rkey) || WINDOWS_DEVICE.test(collection))) return 'the record key cannot be a file name on Windows'
    const folder = path.join(root, collection)
    const file = path.join(folder, `${rkey}.json`)
    if (path.relative(root, file) !== `${collection}${path.sep}${rkey}.json`) return 'the path would leave the output directory'
    const exact = exactDagJson(value)
    if (exact.error !== null) return `cannot write it as DAG-JSON (${exact.error})`
    const bytes = exact.json
    try {
      if (!made.has(collection)) {
        try {
          fs.mkdirSync(folder)
        } catch (err) {
          // another collection that differs only in case, on a case-insensitive file system: ours, a directory
          if (/** @type {any} */ (err)?.code !== 'EEXIST' || !fs.lstatSync(folder).isDirectory()) throw err
        }
        made.add(collection)
      }
      fs.writeFileSync(file, bytes, { flag: 'wx' })
    } catch (err) {
      const e = /** @type {any} */ (err)
      if (e?.code === 'EEXIST') return `${path.join(collection, `${rkey}.json`)} exists already (a key differing only in case, on a case-insensitive file system?); not overwritten`
      return `cannot write ${path.join(collection, `${rkey}.json`)}: ${systemReason(err)}`
    }
    written++
    return null
  }
  return { root, write, written: () => written }
}
