// @ipld/car's 'writer' entry in Node: CarWriter and CarWriterOut (lib/core/api/car-writer.js), with
// updateRootsInFile taking a file descriptor number (fs.open(path, 'r+')) as well as a FileHandle.
import fs from 'node:fs'
import { promisify } from 'node:util'
import { installFileDescriptors } from '../core/api/car-writer.js'

const read = promisify(fs.read)
const write = promisify(fs.write)

installFileDescriptors({
  read: (fd, buffer, offset, length, position) => read(fd, buffer, offset, length, position),
  write: (fd, buffer, offset, length, position) => write(fd, buffer, offset, length, position)
})

export { CarWriter, CarWriterOut } from '../core/api/car-writer.js'
