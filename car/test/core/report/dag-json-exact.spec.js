// DAG-JSON is exact or refused: what the tool shows or writes as DAG-JSON (blockToJson, the page's
// block view, get-block --dag-json, export's values) reads back through @ipld/dag-json as the same
// data; a value DAG-JSON cannot say (a map whose key "/" holds text or {bytes}, -0) is refused
// with the reason, never printed as text that means something else.
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import * as dagJson from '@ipld/dag-json'
import * as codec from 'dag-cbor-fast'
import { CID } from 'multiformats/cid'
import { blockToJson } from '../../../lib/node/node-library.js'
import { cidOf, carV1 } from '../../helpers/car-oracle.js'
import { tool, tempDir } from '../../commands/helpers.js'

const LINK = 'bafyreib5fw4lwsf5ajzvl4ui7s33qcp3vlcgs7dgrda32adp3mw65kyuay'

/** values canonical DAG-CBOR holds and DAG-JSON cannot say, and what the refusal names */
const UNSAID = [
  { name: 'a map whose only key "/" holds a CID string', value: { '/': LINK }, why: /the map at the top has the key "\/" holding text, DAG-JSON's form for a link/ },
  { name: 'a map whose only key "/" holds {bytes}', value: { '/': { bytes: 'AAAA' } }, why: /the map at the top has the key "\/" holding a map with the key "bytes"/ },
  { name: 'a map with "/" holding {bytes} and another key', value: { '/': { bytes: 'AAAA' }, x: 1 }, why: /holding a map with the key "bytes"/ },
  { name: '-0', value: -0, why: /-0 at the top \(DAG-JSON writes it as 0\)/ },
  { name: '-0 inside a list', value: { a: [1, -0] }, why: /-0 at \/a\/1/ }
]

/** values DAG-JSON says exactly, some close to the ones above */
const SAID = [{ '/': 1 }, { '/': [LINK] }, { '/': { a: 1 } }, { '/': CID.parse(LINK) }, { link: CID.parse(LINK), bytes: new Uint8Array([1, 2, 3]), n: -1, f: 1.5, s: '/' }, [{ '/': null }]]

describe('DAG-JSON is exact or refused', function () {
  this.timeout(60000)
  let dir
  before(() => { dir = tempDir() })
  after(() => fs.rmSync(dir, { recursive: true, force: true }))

  for (const { name, value, why } of UNSAID) {
    it(`${name}: blockToJson, get-block --dag-json and export refuse it with the reason`, async () => {
      const bytes = codec.encode(value)
      const cid = await cidOf(bytes)
      const view = blockToJson(cid, bytes)
      assert.equal(view.json, '')
      assert.match(view.error ?? '', /^DAG-JSON cannot say this value exactly: /)
      assert.match(view.error ?? '', why)

      const file = path.join(dir, `${cid}.car`)
      fs.writeFileSync(file, carV1([cid], [{ cid, bytes }]))
      const got = tool(['get-block', file, cid.toString(), '--dag-json'])
      assert.equal(got.code, 1)
      assert.equal(got.stdout, '')
      assert.match(got.stderr, why)
      assert.match(got.stderr, /nothing written \(get its bytes without --dag-json\)/)

      const exported = tool(['export', file])
      assert.equal(exported.code, 0, exported.stderr)
      const line = JSON.parse(exported.stdout.trim().split('\n')[1])
      assert.equal(line.value, undefined)
      assert.equal(Buffer.from(line.bytes, 'base64').equals(Buffer.from(bytes)), true)
      assert.match(line.note, why)
    })
  }

  it('values DAG-JSON says exactly are shown, and read back through @ipld/dag-json as the same data', async () => {
    for (const value of SAID) {
      const bytes = codec.encode(value)
      const view = blockToJson(await cidOf(bytes), bytes)
      assert.equal(view.error, undefined, JSON.stringify(view))
      assert.deepEqual(codec.encode(dagJson.decode(new TextEncoder().encode(view.json))), bytes, view.json)
    }
  })
})
