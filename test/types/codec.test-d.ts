// Type test (checked by `npm run test:types`, never run): the codec, as typed from the JSDoc
// in index.js and lib/, is a multiformats BlockCodec<0x71, T> and its extras are typed.
import type { BlockCodec, ByteView } from 'multiformats/codecs/interface'
import * as codec from '../../index.js'

// the module itself is a BlockCodec, for unknown and for a concrete data shape
export const asBlockCodec: BlockCodec<0x71, unknown> = codec
export const asTypedCodec: BlockCodec<0x71, { links: string[] }> = codec
// @ts-expect-error the code is the literal 0x71, not dag-pb's 0x70
export const wrongCode: BlockCodec<0x70, unknown> = codec

export const name: string = codec.name
export const code: 0x71 = codec.code

// encode returns bytes
export const encoded: Uint8Array = codec.encode({ a: 1, b: [true, null, 'x', new Uint8Array(2)] })
export const encodedWithOptions: Uint8Array = codec.encode('\udc80', { escapedBytes: true })
// pool: a view of a shared slab, still a Uint8Array (ByteView) to its users
export const pooled: Uint8Array = codec.encode({ a: 1 }, { pool: true })
// @ts-expect-error pool is a boolean
codec.encode({ a: 1 }, { pool: 'yes' })

// decode takes a Uint8Array (any view) or an ArrayBuffer
export const fromBytes: unknown = codec.decode(new Uint8Array())
export const fromArrayBuffer: unknown = codec.decode(new ArrayBuffer(8))
export const fromByteView: unknown = codec.decode(encoded as ByteView<unknown>)
export const relaxed: unknown = codec.decode(encoded, { relaxed: true, viewBytes: true, maxDepth: 64 })
// @ts-expect-error a string is not bytes
codec.decode('a1616101')

// the rest of the API
export const first: [unknown, Uint8Array] = codec.decodeFirst(encoded)
export const length: number = codec.encodedLength([1, 2, 3])
export const written: number = codec.encodeInto({ a: 1 }, new Uint8Array(16)).written
export const view: Uint8Array = codec.toByteView(new ArrayBuffer(4))

// generic as @ipld/dag-cbor's encode and decode: ByteView<T> in, T out (drop-in.test-d.ts has more)
interface Post { text: string, likes: number }
const postBytes = codec.encode<Post>({ text: 'hi', likes: 1 })
export const firstPost: [Post, Uint8Array] = codec.decodeFirst(postBytes)
export const firstText: string = codec.decodeFirst<Post>(new Uint8Array(postBytes))[0].text
// @ts-expect-error the first item of bytes of a Post is a Post, which has no txet
export const firstTypo = codec.decodeFirst(postBytes)[0].txet
export const fromDataView: Post = codec.decode<Post>(new DataView(postBytes.buffer))
// @ts-expect-error likes is a number in a Post
codec.encodedLength<Post>({ text: 'hi', likes: '1' })
// @ts-expect-error a Post has likes
codec.encodeInto<Post>({ text: 'hi' }, new Uint8Array(16))

// the error classes carry their rule and location
export function describeError (err: unknown): string {
  if (err instanceof codec.DagCborDecodeError) {
    const rule: string = err.rule
    const offset: number = err.offset
    const path: string = err.path
    const relaxable: boolean = err.relaxable
    return `${rule} at ${offset} ${path} ${relaxable}`
  }
  if (err instanceof codec.DagCborEncodeError) {
    const rule: string = err.rule
    const path: string = err.path
    return `${rule} at ${path}`
  }
  return err instanceof Error ? err.message : String(err)
}

// the option and result types are exported, and an error's rule is one of the rule names
import type { EncodeOptions, DecodeOptions, ValidateOptions, ValidateResult, RuleName } from '../../index.js'
import { validate } from '../../lib/validate.js'
export const encodeWith: EncodeOptions = { escapedBytes: true, maxDepth: 10 }
export const decodeWith: DecodeOptions = { relaxed: true, viewBytes: false, maxDepth: 10 }
export const validateWith: ValidateOptions = { links: true }
export const checked: ValidateResult = validate(encoded, validateWith)
// validate is its own entry, so that a namespace import used as a codec does not carry it
// @ts-expect-error not on the main entry
codec.validate(encoded)
// @ts-expect-error no such option
export const typoOption: DecodeOptions = { relaxd: true }
export function ruleOf (e: InstanceType<typeof codec.DagCborDecodeError>): RuleName { return e.rule }
export const aRule: RuleName = 'map-key-order'
// @ts-expect-error not a rule name
export const notARule: RuleName = 'map-key-orderr'
// @ts-expect-error .rule is a rule name, so a comparison with anything else is a typo
export const typoRule = new codec.DagCborEncodeError('utf8', 'x').rule === 'utf-8'
