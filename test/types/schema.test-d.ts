// Type test (checked by `npm run test:types`, never run): a typed codec compiled for a schema's
// root type, with that type's TypeScript form as toTypeScript writes it
// (examples/schemas/filecoin-types.ts), decodes to that type and encodes only it.
import { compile, toTypeScript } from '../../lib/schema/index.js'
import type { TypedCodec } from '../../lib/schema/index.js'
import type { BlockHeader } from '../../examples/schemas/filecoin-types.js'
import type { CID } from 'multiformats/cid'

declare const schema: { types: Record<string, any> }
declare const bytes: Uint8Array

const header: TypedCodec<BlockHeader> = compile<BlockHeader>(schema, 'BlockHeader')
const decoded = header.decode(bytes)
export const proof: Uint8Array | undefined = decoded.Ticket?.VRFProof
export const parents: CID[] = decoded.Parents
export const height: number = decoded.Height
export const again: Uint8Array = header.encode(decoded)
// @ts-expect-error Height is a number
export const wrong: string = decoded.Height
// @ts-expect-error a BlockHeader needs its fields
header.encode({ Miner: new Uint8Array() })
export const text: string = toTypeScript(schema)
// without a type argument the value is `any`, as generic decode's is unknown
export const loose: unknown = compile(schema, 'BlockHeader').decode(bytes)
