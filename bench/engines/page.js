// The browser side of the cross-engine bench: measures the corpus named in the page's query
// (?corpus=&rounds=&ms=&warm=&quick=) and leaves the result in window.__done for
// bench/engines/run.js, which bundles this file with esbuild.
import { measureCorpus } from './measure.js'

const q = new URLSearchParams(location.search)
const win = /** @type {any} */ (window)
measureCorpus(q.get('corpus') || '', {
  rounds: Number(q.get('rounds')),
  roundMs: Number(q.get('ms')),
  warmMs: Number(q.get('warm')),
  quick: q.get('quick') === '1'
}).then(
  (result) => { win.__done = { result, isolated: globalThis.crossOriginIsolated === true, gc: typeof win.gc === 'function' } },
  (e) => { win.__done = { error: String(e && e.stack ? e.stack : e) } }
)
