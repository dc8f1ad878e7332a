// Writing the output CAR atomically: the bytes go to a temporary file in the target's directory,
// which is flushed (fsync) and renamed over the target only when the whole run succeeded. On any
// failure, and on SIGINT/SIGTERM/SIGHUP (see temporary-files.js), the temporary file is removed and
// whatever was at the target stays untouched: nothing partial ever sits under the target's name.
import fs from 'node:fs'
import path from 'node:path'
import crypto from 'node:crypto'
import { encode } from 'dag-cbor-fast'
import { ToolError, systemReason } from '../core/base/errors.js'
import { temporaryFiles, addTemporaryFile } from './temporary-files.js'

const STAGING = 1 << 20

/**
 * Open an output file. A regular file (or a new name) is written through a temporary file renamed
 * over it on commit; a device or FIFO (/dev/null, /dev/stdout) is written directly, since there is
 * nothing to replace atomically.
 *
 * @param {string} target
 */
export async function openAtomicFile (target) {
  const cannotWrite = (/** @type {unknown} */ err) => new ToolError(`cannot write ${target}: ${systemReason(err)}`)
  /** @type {fs.Stats | null} */
  let existing = null
  try {
    existing = await fs.promises.stat(target) // follows a symlink: we replace the file it points to
  } catch (err) {
    if (/** @type {any} */ (err)?.code !== 'ENOENT') throw cannotWrite(err)
  }
  if (existing?.isDirectory()) throw cannotWrite(Object.assign(new Error(), { code: 'EISDIR' }))
  if (existing && !existing.isFile()) {
    const handle = await fs.promises.open(target, 'w').catch((err) => { throw cannotWrite(err) })
    let closed = false
    const close = async () => { if (!closed) { closed = true; await handle.close() } }
    return { handle, temporary: null, cannotWrite, finish: close, commit: close, abort: () => close().catch(() => {}) }
  }
  const real = existing ? await fs.promises.realpath(target) : target
  const temporary = path.join(path.dirname(real), `.${path.basename(real)}.${process.pid}-${crypto.randomBytes(4).toString('hex')}.tmp`)
  addTemporaryFile(temporary)
  /** @type {fs.promises.FileHandle} */
  let handle
  try {
    handle = await fs.promises.open(temporary, 'wx', existing ? existing.mode & 0o7777 : 0o666)
  } catch (err) {
    temporaryFiles.delete(temporary)
    throw cannotWrite(err)
  }
  let open = true
  return {
    handle,
    temporary,
    cannotWrite,
    /** Everything written is on disk, under the temporary name (to be read back before commit). */
    async finish () {
      if (!open) return
      try {
        await handle.sync()
        await handle.close()
        open = false
      } catch (err) {
        await this.abort()
        throw cannotWrite(err)
      }
    },
    async commit () {
      await this.finish()
      try {
        await fs.promises.rename(temporary, real)
        temporaryFiles.delete(temporary)
      } catch (err) {
        await this.abort()
        throw cannotWrite(err)
      }
      // make the rename itself durable; not every file system lets a directory be fsynced
      const dir = await fs.promises.open(path.dirname(real), 'r').catch(() => null)
      await dir?.sync().catch(() => {})
      await dir?.close()
    },
    async abort () {
      if (open) await handle.close().catch(() => {})
      open = false
      await fs.promises.rm(temporary, { force: true }).catch(() => {})
      temporaryFiles.delete(temporary)
    }
  }
}

/**
 * A CARv1 written to a file atomically: header, then sections in the order given. Sections are
 * copied into one 1 MiB staging buffer, written when full: no object per block outlives its put()
 * (views kept until a later write would keep the input's chunks alive, and old-space garbage grows).
 *
 * @param {string} target
 * @param {import('multiformats').CID[]} roots
 */
export async function openCarOutput (target, roots) {
  const file = await openAtomicFile(target)
  const staging = Buffer.allocUnsafe(STAGING)
  let used = 0
  /** @param {Uint8Array} bytes */
  const writeAll = async (bytes) => {
    try {
      for (let at = 0; at < bytes.length;) {
        const { bytesWritten } = await file.handle.write(bytes, at, bytes.length - at)
        if (bytesWritten === 0) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' })
        at += bytesWritten
      }
    } catch (err) {
      throw file.cannotWrite(err)
    }
  }
  const flush = async () => {
    if (used) await writeAll(staging.subarray(0, used))
    used = 0
  }
  /** @param {number} n */
  const putVarint = (n) => {
    while (n >= 0x80) { staging[used++] = (n % 0x80) | 0x80; n = Math.floor(n / 0x80) }
    staging[used++] = n
  }
  /** @param {Uint8Array} bytes */
  const putBytes = async (bytes) => {
    if (bytes.length > STAGING - used) {
      await flush()
      if (bytes.length > STAGING) return writeAll(bytes) // a big block goes straight out
    }
    staging.set(bytes, used)
    used += bytes.length
  }
  const header = encode({ roots, version: 1 })
  if (header.length + 10 > STAGING) throw new ToolError(`cannot write ${target}: the header would be ${header.length} bytes`)
  putVarint(header.length)
  await putBytes(header)
  return {
    file: target,
    /**
     * @param {import('multiformats').CID} cid
     * @param {Uint8Array} bytes
     */
    async put (cid, bytes) {
      if (used + 10 + cid.bytes.length > STAGING) await flush()
      putVarint(cid.bytes.length + bytes.length)
      staging.set(cid.bytes, used)
      used += cid.bytes.length
      await putBytes(bytes)
    },
    /** Write what is staged and flush it to disk, still under the temporary name. */
    async finish () {
      await flush()
      await file.finish()
    },
    /** What was written (after finish), read from the temporary file; null for a device or FIFO. */
    reopen: async () => file.temporary === null ? null : (await import('./input-source.js')).openInput(file.temporary),
    /** Write what is staged (if finish did not), flush it, rename over the target. */
    async commit () {
      await flush()
      await file.commit()
    },
    /** Remove the temporary file; the target is untouched. */
    abort: () => file.abort()
  }
}
