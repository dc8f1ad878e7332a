// Records checked against their Lexicons (`repo verify --lexicons DIR`, checkRepo's `lexicons`):
// a record whose collection is a record type of the compiled documents goes through that codec's
// validate (dag-cbor-fast/lexicon, every rule of the spec); one that breaks a rule is a fault
// naming the rule and the place in the record. A record of a collection no document defines is
// counted as not checked, never as valid.

/**
 * @typedef {object} LexiconSummary
 * @property {string[]} recordTypes the record types the documents define
 * @property {number} valid records that passed their Lexicon
 * @property {number} invalid records that broke it (each a `record-lexicon` fault)
 * @property {number} notChecked records of collections with no record type among the documents
 * @property {Record<string, number>} notCheckedByCollection those, by collection
 * @property {number} unread records not checked because they could not be read as strict DAG-CBOR
 *   (missing, wrong hash or codec: faults of their own)
 */

/**
 * @param {import('dag-cbor-fast/lexicon').Lexicons} lexicons compiled documents
 */
export function lexiconChecker (lexicons) {
  const types = new Set(lexicons.records)
  /** @type {LexiconSummary} */
  const summary = { recordTypes: [...lexicons.records].sort(), valid: 0, invalid: 0, notChecked: 0, notCheckedByCollection: {}, unread: 0 }
  return {
    summary,
    /**
     * @param {string | null} collection the record's collection (null: not a valid repo path)
     * @param {Uint8Array | null} bytes the record's bytes, null when they could not be read as strict DAG-CBOR
     * @returns {{ rule: string, path: string, offset: number, message: string } | null} what it broke
     */
    check (collection, bytes) {
      if (collection === null || !types.has(collection)) {
        summary.notChecked++
        const name = collection ?? '(not a repo path)'
        summary.notCheckedByCollection[name] = (summary.notCheckedByCollection[name] ?? 0) + 1
        return null
      }
      if (bytes === null) {
        summary.unread++
        return null
      }
      try {
        lexicons.record(collection).validate(bytes)
      } catch (err) {
        const e = /** @type {{ rule?: unknown, path?: unknown, offset?: unknown, message: string }} */ (err)
        if (typeof e?.rule !== 'string') throw err
        summary.invalid++
        return { rule: e.rule, path: typeof e.path === 'string' ? e.path : '', offset: typeof e.offset === 'number' ? e.offset : -1, message: e.message }
      }
      summary.valid++
      return null
    }
  }
}

/** @typedef {ReturnType<typeof lexiconChecker>} LexiconChecker */
