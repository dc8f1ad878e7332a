// The library's readers' options (api/: CarReader, CarBufferReader, CarIndexer, the iterators; the
// Node shell's CarIndexedReader), checked before an input is opened, so that a wrong option is
// named at the call rather than met halfway through a CAR.
import { MAX_MAX_BLOCK_SIZE } from '../read/limits.js'
import { checkOptionsObject, checkByteCount, checkBoolean } from '../base/options.js'

/**
 * The readers' options (api/car-block-iterator.js's IteratorOptions), checked: a TypeError or a
 * RangeError naming the option.
 *
 * @param {string} api the call, as the message names it
 * @param {unknown} options
 */
export function checkIteratorOptions (api, options) {
  const o = checkOptionsObject(api, options)
  for (const name of ['verifyHashes', 'allowUnverified', 'validate', 'decode', 'relaxed', 'viewBytes']) checkBoolean(api, name, o[name])
  checkByteCount(api, 'maxBlockSize', o.maxBlockSize, MAX_MAX_BLOCK_SIZE)
}
