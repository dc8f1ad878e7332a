// Type test (checked by `npm run test:types`, never run): validate as typed from lib/validate.js's JSDoc.
import * as codec from '../../index.js'
import { validate } from '../../lib/validate.js'

const block = codec.encode({ a: 1 })
export const result = validate(block, { maxDepth: 64, links: true })
export const floats: number = result.integralFloats
export const floatPaths: readonly string[] = result.integralFloatPaths
export const links: number[] | null = result.links
export const fromArrayBuffer: number = validate(new ArrayBuffer(8)).integralFloats
// @ts-expect-error links may be null (only { links: true } lists them)
export const notNull: number[] = result.links
// @ts-expect-error the paths are read-only
result.integralFloatPaths.push('/a')
// @ts-expect-error validate is always strict: it takes no relaxed option
validate(block, { relaxed: true })
// @ts-expect-error a string is not bytes
validate('a1616101')
