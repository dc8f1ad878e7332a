// The AT Protocol repository check, as the library offers it: the input opened, the key parsed,
// check/atproto's walk run over the blocks.
import { openSource } from '../read/source.js'
import { loadHasher } from '../check/hash.js'
import { MAX_MAX_BLOCK_SIZE } from '../read/limits.js'
import { checkOptionsObject, checkByteCount, checkBoolean, checkFunction, checkString } from '../base/options.js'

/**
 * @typedef {import('../read/source.js').CarInput} CarInput
 * @typedef {import('../api/car-block-iterator.js').Block} Block
 */

const SHA2_256 = 0x12

/**
 * The AT Protocol repository check (`repo verify --json`'s object): the signed commit, the MST,
 * every record. With didKey (did:key:z...) or didDocument (the account's DID document, parsed
 * JSON), the commit's signature is checked; without, it is not. With lexicons (Lexicon documents,
 * parsed JSON objects or JSON text, as dag-cbor-fast/lexicon's compile takes them; refs must
 * resolve among them), each record whose collection they define is checked against it: a
 * LexiconDocumentError, before the input is opened, when one is broken.
 *
 * @param {CarInput} input
 * @param {{ didKey?: string, didDocument?: object, name?: string, maxBlockSize?: number, records?: boolean, lexicons?: unknown[],
 *   onFault?: (fault: import('../check/atproto/mst-walk.js').Fault) => void,
 *   onRecord?: (entry: import('../check/atproto/mst-walk.js').Entry, record: any) => void }} [options]
 * @returns {Promise<import('../check/atproto/repo-walk.js').RepoSummary>}
 */
export async function checkRepo (input, options = {}) {
  checkRepoOptions(options)
  const [{ readBlocks }, { checkRepo: check }, { parseDidKey, keyFromDidDocument }] = await Promise.all([
    import('../check/atproto/repo-blocks.js'), import('../check/atproto/repo-walk.js'), import('../check/atproto/did-key.js')])
  const key = options.didKey !== undefined
    ? { key: parseDidKey(options.didKey), did: null }
    : options.didDocument !== undefined ? keyFromDidDocument(options.didDocument, 'the DID document') : null
  // the compiler is loaded only when Lexicons are given
  const lexicons = options.lexicons === undefined ? undefined : (await import('dag-cbor-fast/lexicon')).compile(options.lexicons)
  await loadHasher(SHA2_256) // the MST's key heights and every block's hash
  const source = openSource(input, { name: options.name })
  try {
    const store = await readBlocks(source, { maxBlockSize: options.maxBlockSize })
    return await check(store, { input: source.name, records: options.records ?? true, key, lexicons, onFault: options.onFault, onRecord: options.onRecord })
  } finally {
    await source.close()
  }
}

/**
 * checkRepo's options, each of the right kind before the input is opened.
 *
 * @param {unknown} options
 */
function checkRepoOptions (options) {
  const api = 'checkRepo'
  const o = checkOptionsObject(api, options)
  checkString(api, 'didKey', o.didKey)
  if (o.didDocument !== undefined && (o.didDocument === null || typeof o.didDocument !== 'object')) throw new TypeError(`${api}: options.didDocument must be the DID document, parsed (an object)`)
  checkString(api, 'name', o.name)
  checkByteCount(api, 'maxBlockSize', o.maxBlockSize, MAX_MAX_BLOCK_SIZE)
  checkBoolean(api, 'records', o.records)
  if (o.lexicons !== undefined && !Array.isArray(o.lexicons)) throw new TypeError(`${api}: options.lexicons must be an array of Lexicon documents (parsed JSON objects, or JSON text)`)
  if (o.lexicons !== undefined && o.records === false) throw new TypeError(`${api}: options.lexicons checks records, which records: false does not read`)
  checkFunction(api, 'onFault', o.onFault)
  checkFunction(api, 'onRecord', o.onRecord)
}
