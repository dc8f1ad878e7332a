// Whole sections in batches (the pipeline's and the iterator's hot path): read by position from a
// file in this thread (inThreadSectionBatches), by position with reads ahead (directSectionBatches),
// or copied out of a stream's chunks (copiedSectionBatches). Each batch's sections are split by
// their length varints with the checks nextSection makes of each claim; at the first claim to
// report, the stream reader takes over, so every error is the one blocks() gives.
import { varintBytes } from '../base/varint.js'
import { READS_AHEAD, HEADROOM } from './limits.js'

/**
 * @typedef {import('./section-reader.js').CarFileReader} CarFileReader
 * @typedef {import('./section-reader.js').SeekableFile} SeekableFile
 * @typedef {import('./section-reader.js').SectionBatch} SectionBatch
 */

/**
 * Whole sections in batches of about `batchBytes`, each in one SharedArrayBuffer (to hand to a
 * worker thread, which reads the CIDs: see run/section-checks.js), with the file offset of each section
 * and the length varints left in. A file the reader was given is read by position straight into
 * the batches; any other input is copied out of its stream's chunks. Either way every error is
 * the one blocks() gives.
 *
 * @param {CarFileReader} car
 * @param {number} batchBytes
 * @param {number} batchSections
 * @param {SharedArrayBuffer[]} spare buffers of batches already checked, to copy the next batches
 *   into rather than into fresh memory (which the system must first map in, page by page)
 * @returns {AsyncGenerator<SectionBatch>}
 */
export async function * sectionBatches (car, batchBytes, batchSections, spare) {
  const { file, payloadEnd } = car
  if (file?.readRangeSync && payloadEnd !== undefined) yield * inThreadSectionBatches(car, file, file.readRangeSync, payloadEnd, batchBytes, batchSections, spare)
  else if (file && payloadEnd !== undefined) yield * directSectionBatches(car, file, payloadEnd, batchBytes, batchSections, spare)
  else yield * copiedSectionBatches(car, batchBytes, batchSections, spare, 0)
}

/**
 * sectionBatches for a file this thread can read by position itself (readRangeSync): each chunk
 * is read when it is needed, from where the next section starts, so the bytes it copies are in
 * this core's cache when the blocks are hashed, and no thread of a pool is woken to copy them.
 * The section a chunk cuts short is read again at the start of the next chunk; one too big for a
 * chunk is read whole, as a batch of one. At the first claim that is not a plain whole section
 * (one to report, as nextSection does), and at the end, the stream reader takes over at that
 * position, so every error and what follows the data are as blocks() gives them.
 *
 * @param {CarFileReader} car
 * @param {SeekableFile} file
 * @param {NonNullable<SeekableFile['readRangeSync']>} read
 * @param {number} end where the sections end
 * @param {number} batchBytes
 * @param {number} batchSections
 * @param {SharedArrayBuffer[]} spare
 * @returns {AsyncGenerator<SectionBatch>}
 */
async function * inThreadSectionBatches (car, file, read, end, batchBytes, batchSections, spare) {
  const { maxSection, batchKind } = car
  let pos = car.input.pos // where the next section starts
  let count = 0
  let claimToReport = false
  const split = new Split(batchSections)
  car.directPos = pos
  try {
    while (pos < end) {
      const length = Math.min(batchBytes, end - pos)
      const buffer = batchBuffer(spare, length, batchBytes, batchKind)
      read(pos, length, buffer)
      splitSections(buffer, 0, length, pos, end, maxSection, split, car)
      const { n, i } = split
      // nothing whole and nothing too big for a chunk: a claim to report (a varint the data's end cuts short)
      claimToReport = split.claim || (n === 0 && split.cutShort === 0)
      if (n > 0) {
        yield { bytes: buffer.subarray(0, i), ends: split.ends.slice(0, n), starts: split.starts.slice(0, n), first: count }
        count += n
        pos += i
        car.directPos = pos
      } else {
        spare.push(/** @type {SharedArrayBuffer} */ (buffer.buffer))
      }
      if (claimToReport) break
      if (n === 0) { // the section at pos is longer than a chunk
        const size = split.cutShort
        const bytes = read(pos, size, batchBuffer(spare, size, batchBytes, batchKind))
        yield { bytes, ends: Uint32Array.of(size), starts: Float64Array.of(pos), first: count }
        count++
        pos += size
        car.directPos = pos
      }
    }
  } finally {
    car.streamFrom(file, pos)
  }
  if (claimToReport) yield * copiedSectionBatches(car, batchBytes, batchSections, spare, count)
}

/**
 * sectionBatches for a file read by position: the data is read in chunks of `batchBytes` at fixed
 * positions, READS_AHEAD of them at a time (one read at a time leaves this thread waiting on each
 * while the cores are busy), each into a spare buffer with HEADROOM bytes before the chunk. The
 * whole sections in a chunk are handed out as they were read, with no copy; the section a chunk
 * cuts short is copied into the headroom of the next, in front of its rest. A section too big
 * for that is read on its own, as a batch of one. At the first claim that is not a plain whole
 * section (one to report, as nextSection does), and at the end, the stream reader takes over at
 * that position, so every error and what follows the data are as blocks() gives them.
 *
 * @param {CarFileReader} car
 * @param {SeekableFile} file
 * @param {number} end where the sections end
 * @param {number} batchBytes
 * @param {number} batchSections
 * @param {SharedArrayBuffer[]} spare
 * @returns {AsyncGenerator<SectionBatch>}
 */
async function * directSectionBatches (car, file, end, batchBytes, batchSections, spare) {
  const { maxSection, batchKind } = car
  let pos = car.input.pos // where the next section starts
  let count = 0
  let claimToReport = false
  /** @type {{ at: number, length: number, buffer: Uint8Array, read: Promise<Uint8Array> }[]} */
  const reads = []
  let readAt = pos
  const readAhead = () => {
    while (reads.length < READS_AHEAD && readAt < end) {
      const length = Math.min(batchBytes, end - readAt)
      const buffer = batchBuffer(spare, HEADROOM + length, HEADROOM + batchBytes, batchKind)
      reads.push({ at: readAt, length, buffer, read: file.readRange(readAt, length, buffer.subarray(HEADROOM)) })
      readAt += length
    }
  }
  /** @type {Uint8Array | null} the start of the section the last chunk cut short (file bytes [pos, that chunk's end)) */
  let carry = null
  const split = new Split(batchSections)
  car.directPos = pos
  try {
    readAhead()
    while (reads.length > 0 && !claimToReport) {
      const chunk = /** @type {typeof reads[0]} */ (reads.shift())
      await chunk.read
      readAhead()
      const buffer = chunk.buffer
      const limit = HEADROOM + chunk.length
      if (pos >= chunk.at + chunk.length) { // inside a big section read on its own
        spare.push(/** @type {SharedArrayBuffer} */ (buffer.buffer))
        continue
      }
      const first = HEADROOM + pos - chunk.at // where this batch starts in `buffer`: before HEADROOM with a carry
      if (carry) {
        buffer.set(carry, first)
        carry = null
      }
      splitSections(buffer, first, limit, chunk.at - HEADROOM, end, maxSection, split, car)
      const { n, i } = split
      claimToReport = split.claim
      const bigSection = split.cutShort > HEADROOM ? split.cutShort : 0
      pos = chunk.at + i - HEADROOM
      car.directPos = pos
      if (!claimToReport && bigSection === 0 && i < limit) carry = buffer.slice(i, limit)
      if (n > 0) {
        yield { bytes: buffer.subarray(first, i), ends: split.ends.slice(0, n), starts: split.starts.slice(0, n), first: count }
        count += n
      } else {
        spare.push(/** @type {SharedArrayBuffer} */ (buffer.buffer))
      }
      if (bigSection > 0) {
        const bytes = await file.readRange(pos, bigSection, batchBuffer(spare, bigSection, batchBytes, batchKind))
        yield { bytes, ends: Uint32Array.of(bigSection), starts: Float64Array.of(pos), first: count }
        count++
        pos += bigSection
        car.directPos = pos
      }
    }
  } finally {
    for (const r of reads) r.read.catch(() => {}) // reads ahead no one will take
    car.streamFrom(file, pos)
  }
  if (claimToReport) yield * copiedSectionBatches(car, batchBytes, batchSections, spare, count)
}

/**
 * sectionBatches for any input, copying each batch's sections out of the stream's chunks. A
 * section that lies whole in the chunk at hand and whose length claim passes the checks
 * nextSection makes is taken as it is, with no object made for it, and runs of such sections are
 * copied at once; any other (one that spans chunks, or a claim to report) goes through
 * nextSection, so every error is the one blocks() gives.
 *
 * @param {CarFileReader} car
 * @param {number} batchBytes
 * @param {number} batchSections
 * @param {SharedArrayBuffer[]} spare
 * @param {number} count sections read before
 * @returns {AsyncGenerator<SectionBatch>}
 */
async function * copiedSectionBatches (car, batchBytes, batchSections, spare, count) {
  const { input: reader, payloadEnd: dataEnd, maxSection, batchKind } = car
  for (;;) {
    /** @type {[Uint8Array, number, number][]} byte ranges to copy into the batch, in order */
    const runs = []
    const ends = new Uint32Array(batchSections)
    const starts = new Float64Array(batchSections)
    let n = 0
    let size = 0
    /** @type {Uint8Array | null} */
    let runBuf = null
    let runFrom = 0
    let runTo = 0
    let failure = null
    let done = false
    while (size < batchBytes && n < batchSections) {
      const buf = reader.buf
      const off = reader.off
      const start = reader.pos
      if (dataEnd !== undefined && start >= dataEnd) { done = true; break }
      const avail = reader.available()
      let length = 0
      let scale = 1
      let varintSize = 0
      for (let i = 0; i < 9 && i < avail; i++) {
        const b = buf[off + i]
        length += (b & 0x7f) * scale
        if (b < 0x80) { varintSize = i + 1; break }
        scale *= 128
      }
      const left = dataEnd === undefined ? Infinity : dataEnd - start - varintSize
      if (varintSize > 0 && length > 0 && length <= maxSection && length <= left && varintSize + length <= avail) {
        if (buf[off + varintSize - 1] === 0) car.noteNonMinimal(start, 'section') // not the shortest form
        const to = off + varintSize + length
        if (runBuf === buf && runTo === off) runTo = to
        else {
          if (runBuf) runs.push([runBuf, runFrom, runTo])
          runBuf = buf
          runFrom = off
          runTo = to
        }
        reader.seek(varintSize + length)
      } else {
        let next
        try {
          next = await car.nextSection(count)
        } catch (err) {
          failure = err // the sections before it are still handed out, then the error
          break
        }
        if (next === null) { done = true; break }
        if (runBuf) runs.push([runBuf, runFrom, runTo])
        runBuf = null
        const varint = varintBytes(next.section.length)
        runs.push([varint, 0, varint.length], [next.section, 0, next.section.length])
        varintSize = varint.length
        length = next.section.length
      }
      size += varintSize + length
      starts[n] = start
      ends[n] = size
      n++
      count++
    }
    if (runBuf) runs.push([runBuf, runFrom, runTo])
    if (n === 0) {
      if (failure) throw failure
      return
    }
    const bytes = batchBuffer(spare, size, batchBytes, batchKind)
    let at = 0
    for (const [from, start, stop] of runs) {
      bytes.set(from.subarray(start, stop), at)
      at += stop - start
    }
    yield { bytes, ends: ends.slice(0, n), starts: starts.slice(0, n), first: count - n }
    if (failure) throw failure
    if (done) return
  }
}

/** What splitSections found in a chunk; its arrays are made once per run, grown as needed. */
class Split {
  /** @param {number} sections */
  constructor (sections) {
    /** whole sections found */
    this.n = 0
    /** where the first section not taken starts in the chunk */
    this.i = 0
    /** that section's claim is one to report (as nextSection does): malformed, 0, too big, past the end */
    this.claim = false
    /** that section's size, when the chunk cuts it short (0: its length varint is cut short, or a claim) */
    this.cutShort = 0
    /** where each whole section ends, from `from` */
    this.ends = new Uint32Array(sections)
    /** the file offset of each */
    this.starts = new Float64Array(sections)
  }
}

/**
 * Split buffer[from, limit) into whole sections by their length varints, as far as each passes the
 * checks nextSection makes of its claim; stop at the first that is cut short by the chunk or whose
 * claim is to be reported.
 *
 * @param {Uint8Array} buffer
 * @param {number} from
 * @param {number} limit
 * @param {number} base the file offset of buffer[0]
 * @param {number} end where the sections end in the file
 * @param {number} maxSection
 * @param {Split} out
 * @param {CarFileReader} car told of each length varint that is not minimal (noteNonMinimal)
 */
function splitSections (buffer, from, limit, base, end, maxSection, out, car) {
  let { ends, starts } = out
  let n = 0
  let i = from
  let claim = false
  let cutShort = 0
  while (i < limit) {
    let length = 0
    let scale = 1
    let varintSize = 0
    for (let k = 0; k < 9 && i + k < limit; k++) {
      const b = buffer[i + k]
      length += (b & 0x7f) * scale
      if (b < 0x80) { varintSize = k + 1; break }
      scale *= 128
    }
    const at = base + i
    if (varintSize === 0) { // cut short by the chunk (the next one has the rest), or malformed
      claim = i + 9 <= limit || base + limit >= end
      break
    }
    if (length === 0 || length > maxSection || length > end - at - varintSize) { claim = true; break }
    // a last byte 0 (after the first: length 0 is a claim above) is not the shortest form
    if (buffer[i + varintSize - 1] === 0) car.noteNonMinimal(at, 'section')
    const size = varintSize + length
    if (i + size > limit) {
      cutShort = size
      break
    }
    if (n === ends.length) { out.ends = ends = grow(ends); out.starts = starts = grow(starts) }
    starts[n] = at
    i += size
    ends[n++] = i - from
  }
  out.n = n
  out.i = i
  out.claim = claim
  out.cutShort = cutShort
}

/**
 * A typed array twice as long, holding the old contents.
 *
 * @template {Uint32Array | Float64Array} T
 * @param {T} array
 * @returns {T}
 */
function grow (array) {
  const next = /** @type {T} */ (new /** @type {any} */ (array.constructor)(array.length * 2))
  next.set(/** @type {any} */ (array))
  return next
}

/**
 * Batches are shared with worker threads where the runtime has SharedArrayBuffer; a browser page
 * that is not cross-origin isolated has none, and checks its batches in the thread that reads them.
 */
export const BatchBuffer = typeof SharedArrayBuffer === 'function' ? SharedArrayBuffer : ArrayBuffer

/**
 * @typedef {[typeof SharedArrayBuffer | typeof ArrayBuffer, boolean]} BatchKind what a new batch buffer is
 *   made of, and whether it will be used again (so made with room for a typical batch); if not (its
 *   blocks go to a caller, who may keep them), of exactly the size asked for
 */

/**
 * `size` bytes for a batch: in a spare buffer big enough, else in a new one with room for a
 * typical batch (`batchBytes` and a few sections more), so that it can be used again.
 *
 * @param {SharedArrayBuffer[]} spare
 * @param {number} size
 * @param {number} batchBytes
 * @param {BatchKind} kind
 */
function batchBuffer (spare, size, batchBytes, [Batch, reused]) {
  while (spare.length > 0) {
    const buffer = /** @type {SharedArrayBuffer} */ (spare.pop())
    if (buffer.byteLength >= size) return new Uint8Array(buffer, 0, size)
  }
  return new Uint8Array(new Batch(reused ? Math.max(size, batchBytes + (batchBytes >> 3)) : size), 0, size)
}
