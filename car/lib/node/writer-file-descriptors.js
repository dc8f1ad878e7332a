// The Node entry's CarWriter (lib/core/api/car-writer.js): updateRootsInFile taking a file descriptor
// number (fs.open(path, 'r+')) as well as a FileHandle, through fs.read and fs.write installed here.
import fs from 'node:fs'
import { promisify } from 'node:util'
import { installFileDescriptors } from '../core/write/file-descriptors.js'

const read = promisify(fs.read)
const write = promisify(fs.write)

installFileDescriptors({
  read: (fd, buffer, offset, length, position) => read(fd, buffer, offset, length, position),
  write: (fd, buffer, offset, length, position) => write(fd, buffer, offset, length, position)
})
