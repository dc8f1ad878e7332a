// The Node entry's CarWriter (lib/core/api/car-writer.js): updateRootsInFile taking a file descriptor
// number (fs.open(path, 'r+')) as well as a FileHandle, through fs.read and fs.write installed here.
import { installFileDescriptors } from '../core/write/file-descriptors.js'

// (process.getBuiltinModule, not import: an import of a built-in module makes Node build its ES
// module face, reading every export, node:fs's fs.promises among them, which loads 35 of Node's
// internal modules, its streams and readline, when the library is imported; a bundle keeps the call)
const fs = /** @type {typeof import('node:fs')} */ (process.getBuiltinModule('node:fs'))
const { promisify } = /** @type {typeof import('node:util')} */ (process.getBuiltinModule('node:util'))

const read = promisify(fs.read)
const write = promisify(fs.write)

installFileDescriptors({
  read: (fd, buffer, offset, length, position) => read(fd, buffer, offset, length, position),
  write: (fd, buffer, offset, length, position) => write(fd, buffer, offset, length, position)
})
