import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * Whether a given secret (a token from a header or a path) equals the expected one, in time that says nothing of
 * either's length or content: their SHA-256 digests are compared, which always have the same length.
 */
export function sameSecret(given: string, expected: string): boolean {
  return timingSafeEqual(digest(given), digest(expected));
}
