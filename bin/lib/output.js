// Writing the output CAR atomically: the bytes go to a temporary file in the target's directory,
// which is flushed (fsync) and renamed over the target only when the whole run succeeded. On any
// failure, and on SIGINT/SIGTERM/SIGHUP (see removeTemporaryFiles), the temporary file is removed and
// whatever was at the target stays untouched: nothing partial ever sits under the target's name.
import fs from 'node:fs'
import path from 'node:path'
import crypto from 'node:crypto'
import { encode } from '../../index.js'
import { ToolError, systemReason } from './errors.js'

const FLUSH_BYTES = 1 << 20
const FLUSH_PARTS = 1000 // below IOV_MAX (1024) for one writev

/** Temporary files not yet renamed or removed, for the signal and exit handlers. */
const temporaryFiles = new Set()

/** Remove every temporary output file still pending. Synchronous: safe in 'exit' and signal handlers. */
export function removeTemporaryFiles () {
  for (const file of temporaryFiles) {
    try { fs.rmSync(file, { force: true }) } catch {}
  }
  temporaryFiles.clear()
}

/** @returns {string[]} temporary output files not yet renamed or removed */
export function pendingTemporaryFiles () {
  return [...temporaryFiles]
}

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
    return { handle, temporary: null, cannotWrite, commit: () => handle.close(), abort: () => handle.close().catch(() => {}) }
  }
  const real = existing ? await fs.promises.realpath(target) : target
  const temporary = path.join(path.dirname(real), `.${path.basename(real)}.${process.pid}-${crypto.randomBytes(4).toString('hex')}.tmp`)
  temporaryFiles.add(temporary)
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
    async commit () {
      try {
        await handle.sync()
        await handle.close()
        open = false
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
 * @param {number} n
 * @returns {Uint8Array}
 */
function varint (n) {
  const out = []
  while (n >= 0x80) { out.push((n % 0x80) | 0x80); n = Math.floor(n / 0x80) }
  out.push(n)
  return Uint8Array.from(out)
}

/**
 * A CARv1 written to a file atomically: header, then sections in the order given. Writes are
 * gathered and sent with one writev per MiB, so a block costs no syscall of its own.
 *
 * @param {string} target
 * @param {import('multiformats').CID[]} roots
 */
export async function openCarOutput (target, roots) {
  const file = await openAtomicFile(target)
  /** @type {Uint8Array[]} */
  let parts = []
  let pending = 0
  const flush = async () => {
    const batch = parts
    parts = []
    pending = 0
    try {
      let { bytesWritten } = await file.handle.writev(batch)
      const total = batch.reduce((n, p) => n + p.length, 0)
      if (bytesWritten < total) { // a short write (e.g. the disk filled up): write the rest, which reports why
        const rest = Buffer.concat(batch).subarray(bytesWritten)
        for (let at = 0; at < rest.length; at += bytesWritten) {
          ({ bytesWritten } = await file.handle.write(rest, at))
          if (bytesWritten === 0) throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' })
        }
      }
    } catch (err) {
      throw file.cannotWrite(err)
    }
  }
  /** @param {Uint8Array} bytes */
  const push = async (bytes) => {
    parts.push(bytes)
    pending += bytes.length
    if (pending >= FLUSH_BYTES || parts.length >= FLUSH_PARTS) await flush()
  }
  const header = encode({ roots, version: 1 })
  await push(varint(header.length))
  await push(header)
  return {
    file: target,
    /**
     * @param {import('multiformats').CID} cid
     * @param {Uint8Array} bytes
     */
    async put (cid, bytes) {
      await push(varint(cid.bytes.length + bytes.length))
      await push(cid.bytes)
      await push(bytes)
    },
    /** Write what is gathered, flush to disk, rename over the target. */
    async commit () {
      if (parts.length) await flush()
      await file.commit()
    },
    /** Remove the temporary file; the target is untouched. */
    abort: () => file.abort()
  }
}
