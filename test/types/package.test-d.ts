// Type test for what users get: the package's own name resolves (through package.json
// "exports" -> "types") to the emitted declarations in types/, built by `npm run build:types`.
import type { BlockCodec } from 'multiformats/codecs/interface'
import * as codec from 'dag-cbor-fast'

export const asBlockCodec: BlockCodec<0x71, unknown> = codec
export const encoded: Uint8Array = codec.encode({ hello: 'world' })
export const fromBytes: unknown = codec.decode(new Uint8Array())
export const fromArrayBuffer: unknown = codec.decode(new ArrayBuffer(0))
export const first: [unknown, Uint8Array] = codec.decodeFirst(encoded)
