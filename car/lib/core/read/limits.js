// Every limit and default of reading a CAR, in one place, each with its reason. Loaded by itself
// when a command's options are parsed (--max-block-size), so it imports nothing: parsing options
// loads no CAR reader. test/core/read/read.spec.js holds that no other file in read/ defines one.

/** Largest block accepted by default (--max-block-size raises it). Real CARs stay well below 2 MiB. */
export const DEFAULT_MAX_BLOCK_SIZE = 4 * 1024 * 1024

/** Largest --max-block-size accepted, and the largest CARv2 index read: past it, a claim is taken
 * for a corrupt one rather than something to allocate. */
export const MAX_MAX_BLOCK_SIZE = 1024 * 1024 * 1024

/** Room for the CID in a section's length claim, on top of the block: an identity CID inlines its
 * data, so a CID may be far longer than a hash's 36 bytes, but not without end. A section claiming
 * more than the maximum block size plus this is refused before anything is read. */
export const CID_ROOM = 4096

/** Reads in flight at once when sections are read from a file by position (one at a time would
 * leave the reading thread waiting on each while the cores are busy checking the last). */
export const READS_AHEAD = 4

/** Room before each chunk read by position, for the start of the section the previous chunk cut
 * short (copied in front of its rest, rather than the chunk copied after it). A section longer
 * than this that a chunk cuts short is read on its own. */
export const HEADROOM = 64 * 1024

/** Bytes of whole sections in a batch (the reader's chunk when it reads by position): large enough
 * that a batch's overhead (a message to a worker, an await) is small per block, small enough to
 * stay in a core's cache while its blocks are hashed. */
export const BATCH_BYTES = 1 << 20

/** Most sections in a batch: the arrays of their ends and offsets are made this long up front. */
export const BATCH_SECTIONS = 8192

/** Most blocks in a batch of Block objects (the pipeline's path for blocks() rather than batches
 * of sections): with BATCH_BYTES, whichever comes first ends a batch. */
export const BATCH_BLOCKS = 512

/** Buffers of batches already read that the block iterator keeps, to read into again: as many as
 * the reader has in use at once (reads ahead and the batch at hand), so fresh memory is rarely mapped. */
export const SPARE_BUFFERS = 8

/** The size of the chunks a Blob or bytes in memory are streamed in (read/source.js), and a file
 * or pipe is read in (lib/node/input-source.js): one batch. */
export const STREAM_CHUNK = BATCH_BYTES

/** The block iterator's batches a worker thread has or waits for, per worker: enough that a worker
 * never idles while the main thread copies blocks out of the batch before. */
export const HASHING_AHEAD = 4

/** The block iterator's batches read and not yet handed out (each about BATCH_BYTES), beyond the
 * workers': the read runs ahead of the caller by this much. */
export const READ_SPARE = 2

/** The sha2-256 a thread hashes in plain JS (check/sha256-js.js) rather than with the platform's hasher,
 * where that platform says so (Node 24 and later: lib/node/hashers-node.js), for inputs of known size up to
 * what is left of it: loading node:crypto there takes longer than hashing this much in a fresh
 * process, and at twice this the JS no longer came out ahead (docs/benchmarks.md). */
export const JS_SHA256_BYTES = 256 * 1024

/** How long the one loop (run/feed.js) may check batches in its own thread, where they are read and
 * checked without a turn of the event loop, before it gives the loop one: a signal handler (Ctrl-C),
 * an application's timers and its I/O wait at most about this long. A turn waits for a timer (at
 * least 1 ms in Node), so turning after every batch would slow a long run by a tenth or more. */
export const EVENT_LOOP_TURN_MS = 100

/** @param {number} n */
export function bytesText (n) {
  if (n % (1024 * 1024) === 0) return `${n / (1024 * 1024)} MiB`
  if (n % 1024 === 0) return `${n / 1024} KiB`
  return `${n} bytes`
}

/** The shortest truncated sha2-256 or blake2b-256 digest a CID may carry for its block to count as
 * checked. The multihash spec allows a digest cut to any length, and one whose bytes are the prefix
 * of the block's digest is its CID; but a few bytes vouch for nothing (anyone can find other bytes
 * that match them), so a shorter one is "unverified", as IPFS's CID check (go-verifcid) refuses
 * digests under 20 bytes. */
export const MIN_TRUNCATED_DIGEST = 20

/** A CARv2 index problem lists this many of the offsets the index gives one block, then counts the
 * rest: a block listed at every one of N offsets would otherwise make a message, and the output,
 * grow with N for each of them. */
export const INDEX_OFFSETS_LISTED = 8

/** The records of the blocks read, kept for the CARv2 index check, start with room for this many and
 * double: small CARs stay small, and a large one costs a few copies. */
export const INDEX_RECORDS_FIRST_CAPACITY = 64

/** Non-minimal length varints whose offsets a reader keeps (the rest are only counted): verify lists
 * at most 10 problems with the CAR as a whole (check/car-checks.js), so more would never be shown. */
export const NON_MINIMAL_KEPT = 10
