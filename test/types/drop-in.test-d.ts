// Type test: TypeScript written for @ipld/dag-cbor's declarations, with only the import changed.
// `npm run test:types` compiles this file twice under strict nodenext: as it is, against this
// package's emitted types (tsconfig.json), and with 'dag-cbor-fast' mapped to @ipld/dag-cbor's
// declarations (tsconfig.ipld-dag-cbor.json), which proves the code is written for those. The
// package test compiles it a third time in a project with the packed tarball installed.
// Each @ts-expect-error line must be an error in all three, or tsc fails ("unused directive").
import * as dagCbor from 'dag-cbor-fast'
import type { ByteView as DagCborByteView, ArrayBufferView as DagCborArrayBufferView } from 'dag-cbor-fast'
import * as Block from 'multiformats/block'
import { CID } from 'multiformats/cid'
import type { BlockCodec, ByteView } from 'multiformats/codecs/interface'
import { sha256 } from 'multiformats/hashes/sha2'

interface Post { text: string, likes: number, reply?: CID }
interface Comment { body: string }

const post: Post = { text: 'hi', likes: 1 }

// encode tags its bytes with the type encoded; decode of such bytes gives that type back
const bytes: ByteView<Post> = dagCbor.encode(post)
const back = dagCbor.decode(bytes)
export const text: string = back.text
// @ts-expect-error a typo in a property of the decoded Post
export const typo = back.txet
// @ts-expect-error bytes of a Post do not decode to a Comment
export const comment: Comment = dagCbor.decode(bytes)

// plain bytes (from a file, a network) decode to the type asked for, or to unknown
export const asked: Post = dagCbor.decode<Post>(new Uint8Array(bytes))
export const likes: number = dagCbor.decode<Post>(new Uint8Array(bytes)).likes
export const unknownValue: unknown = dagCbor.decode(new Uint8Array(bytes))
// @ts-expect-error a value of unknown type has no properties to read
export const unchecked = dagCbor.decode(new Uint8Array(bytes)).text

// encode checks the value against the type it is asked for
// @ts-expect-error likes is a number in a Post
dagCbor.encode<Post>({ text: 'hi', likes: '1' })

// the module is a BlockCodec, and through it encode and decode are typed by the codec's T
const codec: BlockCodec<0x71, Post> = dagCbor
export const decoded: Post = codec.decode(codec.encode(post))
// @ts-expect-error a Post has likes
codec.encode({ text: 'hi' })
// @ts-expect-error decode takes bytes, not a string
codec.decode('a16474657874626869')
export const name: 'dag-cbor' = dagCbor.name
export const code: 0x71 = dagCbor.code

// how IPFS code uses a codec: multiformats' Block
export async function roundTrip (): Promise<Post> {
  const block = await Block.encode({ value: post, codec: dagCbor, hasher: sha256 })
  const cid: CID<Post, 0x71, 0x12, 1> = block.cid
  const linked: Post = { text: 'reply', likes: 0, reply: cid }
  const again = await Block.decode<Post, 0x71, 0x12>({ bytes: dagCbor.encode(linked), codec: dagCbor, hasher: sha256 })
  // @ts-expect-error a Block's value is typed by the codec's T
  again.value.txet
  return again.value
}

// the types it exports, and toByteView<T>, which keeps the type the bytes encode
export const view: DagCborByteView<Post> = dagCbor.encode(post)
export const viewed: DagCborByteView<Post> = dagCbor.toByteView<Post>(view)
const arrayBuffer = view.buffer as DagCborArrayBufferView<Post>
export const fromArrayBuffer: Post = dagCbor.decode(dagCbor.toByteView(arrayBuffer))
export const fromArrayBufferDirectly: Post = dagCbor.decode(arrayBuffer)
// @ts-expect-error bytes of a Post are not bytes of a Comment
export const wrongView: DagCborByteView<Comment> = dagCbor.toByteView<Post>(view)
