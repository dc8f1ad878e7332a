// How CarWriter.updateRootsInFile (api/car-writer.js) reads and writes a numeric file descriptor:
// nothing in the core, which has no file system; the Node shell installs fs.read and fs.write
// (lib/node/writer-file-descriptors.js), and a FileHandle works everywhere without them.

/**
 * @typedef {{ read: (fd: number, buffer: Uint8Array, offset: number, length: number, position: number) => Promise<{ bytesRead: number }>, write: (fd: number, buffer: Uint8Array, offset: number, length: number, position: number) => Promise<unknown> }} FileDescriptors
 */

/** @type {FileDescriptors | null} */
let installed = null

/**
 * Lets updateRootsInFile take a numeric file descriptor (the Node entry installs fs.read and fs.write).
 *
 * @param {FileDescriptors | null} access null: none (a number is refused, with why)
 */
export function installFileDescriptors (access) {
  installed = access
}

/** @returns {FileDescriptors | null} what installFileDescriptors installed last */
export function fileDescriptors () {
  return installed
}
