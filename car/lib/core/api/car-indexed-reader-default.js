// 'dag-cbor-car/indexed-reader' outside Node, Deno and Bun (package.json's exports, "default"
// condition): there @ipld/car's browser build gives a CarIndexedReader whose fromFile refuses, so
// code that imports it builds for a browser and fails only when it reads a file by its path; so
// does this. Node's is lib/node/car-indexed-reader.js.

/** CarIndexedReader where there is no file system: fromFile rejects with why, and what to use. */
export class CarIndexedReader {
  /**
   * @param {string} path
   * @param {object} [options]
   * @returns {Promise<never>}
   */
  static async fromFile (path, options) {
    throw new Error(`CarIndexedReader.fromFile(${JSON.stringify(path)}) reads a file by its path, which needs Node, Deno or Bun (there 'dag-cbor-car/indexed-reader' gives the one that does); here, read the CAR's bytes or stream with CarReader, CarIndexer or CarBlockIterator`)
  }
}
