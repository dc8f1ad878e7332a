// The `out` half of the channel api/car-writer.js's CarWriter.create() and createAppender() give:
// the CAR's bytes, as @ipld/car's CarWriterOut gives them. A class of its own, not exported by
// 'dag-cbor-car/writer' (@ipld/car's Node entry exports CarWriter alone).

/**
 * @typedef {{ _read: () => Promise<IteratorResult<Uint8Array, undefined>> }} ChunkQueue
 *   the writer's side: its next chunk, or the end (CarWriter's _read)
 */

/**
 * `out`: the CAR's bytes, as an async iterable that can be read once (a second reader is refused,
 * as @ipld/car refuses it: 'Multiple iterator not supported').
 *
 * @implements {AsyncIterable<Uint8Array>}
 */
export class CarWriterOut {
  /** @param {ChunkQueue} writer */
  constructor (writer) {
    /** @private */
    this.writer = writer
    /** @private */
    this.iterating = false
  }

  /** @returns {AsyncIterator<Uint8Array>} */
  [Symbol.asyncIterator] () {
    if (this.iterating) throw new Error('Multiple iterator not supported')
    this.iterating = true
    const writer = this.writer
    return { next: () => writer._read() }
  }
}
