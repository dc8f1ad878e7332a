// A Cloudflare Worker (or a local workerd) that verifies the CAR sent to it as a POST body and
// answers the summary the CLI's `verify --json` prints. The body is read as the stream it is: the
// CAR is checked as it arrives, in bounded memory, never held whole.
//   200  the CAR was checked and is good (summary.result "ok")
//   422  the CAR was checked and has problems (hash mismatches, invalid DAG-CBOR, missing roots...):
//        the summary says which, with byte offsets
//   400  the body is not a CAR the checks could read
// The response header x-hash-backends says which implementation hashed each kind of block: workerd
// forbids compiling WebAssembly at run time, so the core falls back to its pure-JS hashes here.
import { verifyCar, hashBackends } from 'dag-cbor-car'

export default {
  /**
   * @param {Request} request
   * @returns {Promise<Response>}
   */
  async fetch (request) {
    if (request.method !== 'POST' || !request.body) {
      return new Response('POST a CAR file as the request body, e.g. curl --data-binary @file.car <this address>\n', { status: 405, headers: { allow: 'POST' } })
    }
    const name = new URL(request.url).searchParams.get('name') ?? 'request body'
    let summary
    try {
      summary = await verifyCar(request.body, { name })
    } catch (e) {
      return Response.json({ error: String(/** @type {Error} */ (e)?.message ?? e) }, { status: 400 })
    }
    const backends = Object.entries(hashBackends()).map(([hash, backend]) => `${hash}=${backend}`).join(', ')
    return Response.json(summary, { status: summary.result === 'ok' ? 200 : 422, headers: { 'x-hash-backends': backends } })
  }
}
