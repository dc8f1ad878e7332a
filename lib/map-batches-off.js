// What '#map-batches' is everywhere but Bun (package.json "imports"): no batched reader, so
// decode.js's readMap reads every map itself. Bun's is lib/map-batches.js.

/** @type {null | ((n: number) => Record<string, unknown> | null)} */
export const readLargeMapInBatches = null
