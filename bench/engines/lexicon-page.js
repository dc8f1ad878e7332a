// The browser side of the Lexicon bench (bench/engines/lexicon.js bundles it with esbuild, the
// documents and CARs embedded as `lexicon-data`): runs bench/lexicon-measure.js and leaves its
// printed lines in window.__done.
/* global location, window */
import { measureLexicon } from '../lexicon-measure.js'
import { documents, cars } from 'lexicon-data' // eslint-disable-line local/declared-imports

const q = new URLSearchParams(location.search)
const win = /** @type {any} */ (window)
/** @type {string[]} */
const lines = []
// started after the page's load event: a run takes minutes, and the runner waits for the load
window.addEventListener('load', () => setTimeout(run, 0))

function run () {
  measureLexicon({
    quick: q.get('quick') === '1',
    only: q.get('only') || '',
    documents,
    cars: cars.map((/** @type {string} */ b64) => Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))),
    engine: q.get('engine') || 'browser',
    log: (line) => lines.push(line)
  }).then(
    () => { win.__done = { lines } },
    (e) => { win.__done = { lines, error: String(e && e.stack ? e.stack : e) } }
  )
}
