// Builds the browser bundles into dist/ with esbuild (`npm run build:browser`):
//   dist/dag-cbor.min.js       ESM, minified: the codec's exports plus `CID` and `sha256` from multiformats
//   dist/dag-cbor.iife.min.js  the same as a classic script exposing the global `DagCbor`
// `CID` and `sha256` are re-exported so that <script>/no-bundler users can make links and block CIDs
// with the very CID class the codec bundles (multiformats' sha256 uses crypto.subtle in browsers).
import * as esbuild from 'esbuild'
import { fileURLToPath } from 'node:url'
import path from 'node:path'
import fs from 'node:fs'
import zlib from 'node:zlib'

export const root = fileURLToPath(new URL('../../', import.meta.url))
export const distDir = path.join(root, 'dist')

const entry = {
  contents: [
    "export * from './index.js'",
    "export { CID } from 'multiformats/cid'",
    "export { sha256 } from 'multiformats/hashes/sha2'"
  ].join('\n'),
  resolveDir: root,
  sourcefile: 'dag-cbor-browser-entry.js',
  loader: 'js'
}

const common = {
  stdin: entry,
  bundle: true,
  minify: true,
  platform: 'browser',
  target: ['es2020'],
  sourcemap: true,
  legalComments: 'none',
  logLevel: 'warning'
}

export async function build () {
  const outputs = [
    { ...common, format: 'esm', outfile: path.join(distDir, 'dag-cbor.min.js') },
    { ...common, format: 'iife', globalName: 'DagCbor', outfile: path.join(distDir, 'dag-cbor.iife.min.js') }
  ]
  const files = []
  for (const options of outputs) {
    const result = await esbuild.build({ ...options, metafile: true })
    for (const [file, info] of Object.entries(result.metafile.outputs)) {
      if (!file.endsWith('.map')) files.push({ file, bytes: info.bytes })
    }
  }
  return files
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const files = await build()
  for (const { file, bytes } of files) {
    const gz = zlib.gzipSync(fs.readFileSync(path.resolve(file)), { level: 9 }).length
    console.log(`${file}  ${(bytes / 1024).toFixed(1)} KB min, ${(gz / 1024).toFixed(1)} KB gz`)
  }
}
