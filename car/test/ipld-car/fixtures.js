// The fixtures as @ipld/car's test/_fixtures_to_js.mjs writes them (each file in fixtures/, as
// base64, by name), made when loaded instead of generated and committed (it would be 4.7 MB).
import { readdirSync, readFileSync } from 'node:fs'

const dir = new URL('../fixtures/ipld-car/', import.meta.url)

/** @type {Record<string, string>} */
export const data = Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(new URL(f, dir)).toString('base64')]))
data._ = ''
