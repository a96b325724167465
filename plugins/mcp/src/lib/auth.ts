/** Bearer tokens for `arc mcp serve`: generated, compared in constant time, never printed after start-up. */
import {createHash, randomBytes, timingSafeEqual} from 'node:crypto'

/** A new 256-bit token, base64url (43 characters). */
export function generateToken(): string {
  return randomBytes(32).toString('base64url')
}

const sha256 = (value: string) => createHash('sha256').update(value, 'utf8').digest()

/**
 * True when `header` is `Bearer <expected>` (scheme case-insensitive). Both sides are hashed first, so the
 * comparison takes the same time whatever the length or the first differing byte.
 */
export function checkBearer(header: string | undefined, expected: string): boolean {
  const m = /^Bearer +(\S+) *$/i.exec(header ?? '')
  const same = timingSafeEqual(sha256(m ? (m[1] as string) : ''), sha256(expected))
  return same && m !== null && expected.length > 0
}
