// Tiny assertion helpers for the browser bundle (node's assert is not available in the page).

export class AssertionError extends Error {
  constructor (message) { super(message); this.name = 'AssertionError' }
}

export function ok (value, message = 'expected a truthy value') {
  if (!value) throw new AssertionError(message)
}

export function is (actual, expected, message = '') {
  if (!Object.is(actual, expected)) {
    throw new AssertionError(`${message ? message + ': ' : ''}expected ${show(expected)}, got ${show(actual)}`)
  }
}

export function toHex (bytes) {
  let s = ''
  for (const b of bytes) s += b.toString(16).padStart(2, '0')
  return s
}

export function fromHex (hex) {
  hex = hex.replace(/\s+/g, '')
  const out = new Uint8Array(hex.length / 2)
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return out
}

export function bytesEqual (actual, expected, message = 'bytes differ') {
  ok(actual instanceof Uint8Array, `${message}: expected a Uint8Array, got ${show(actual)}`)
  const a = toHex(actual)
  const e = toHex(expected)
  if (a !== e) throw new AssertionError(`${message}: expected ${e}, got ${a}`)
}

// Structural equality for the IPLD data model (no CIDs here: compare those with .equals()).
export function deepEqual (actual, expected, message = 'values differ', path = '') {
  const where = `${message} at '${path || '/'}'`
  if (expected instanceof Uint8Array) return bytesEqual(actual, expected, where)
  if (Array.isArray(expected)) {
    ok(Array.isArray(actual), `${where}: expected an array, got ${show(actual)}`)
    is(actual.length, expected.length, `${where}: length`)
    expected.forEach((v, i) => deepEqual(actual[i], v, message, `${path}/${i}`))
    return
  }
  if (expected !== null && typeof expected === 'object') {
    ok(actual !== null && typeof actual === 'object', `${where}: expected an object, got ${show(actual)}`)
    is(Object.keys(actual).join(','), Object.keys(expected).join(','), `${where}: keys`)
    for (const k of Object.keys(expected)) deepEqual(actual[k], expected[k], message, `${path}/${k}`)
    return
  }
  is(actual, expected, where)
}

// Runs fn, expects it to throw an instance of Class; returns the error for further checks.
export function throws (fn, Class, message = 'expected an error') {
  let error
  try { fn() } catch (e) { error = e }
  if (error === undefined) throw new AssertionError(`${message}: nothing was thrown`)
  if (Class && !(error instanceof Class)) {
    throw new AssertionError(`${message}: expected ${Class.name}, got ${error && error.name}: ${error && error.message}`)
  }
  return error
}

function show (v) {
  if (typeof v === 'bigint') return `${v}n`
  if (Object.is(v, -0)) return '-0'
  if (v instanceof Uint8Array) return `Uint8Array(${toHex(v)})`
  try { return JSON.stringify(v) ?? String(v) } catch { return String(v) }
}
