import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The short-lived credential a TwiML answer hands Twilio in a `<Parameter>` and Twilio gives back in the stream's
 * `start.customParameters`: `<expiry in unix seconds>.<base64url HMAC-SHA256>` over the call id and the expiry, so
 * it opens a stream for that call only, and only until it expires. Keyed by a key derived from the Twilio auth
 * token, which the api (that writes it) and the voice process (that checks it) both hold.
 */
const DOMAIN = 'switchboard voice-stream credential v1';

const keyOf = (authToken: string) => createHmac('sha256', authToken).update(DOMAIN).digest();

const mac = (authToken: string, callId: string, expiresAt: number) =>
  createHmac('sha256', keyOf(authToken)).update(`${callId}\n${expiresAt}`).digest('base64url');

/** A credential for callId valid until nowMs + ttlSeconds. */
export function streamCredential(authToken: string, callId: string, ttlSeconds: number, nowMs = Date.now()): string {
  const expiresAt = Math.floor(nowMs / 1000) + ttlSeconds;
  return `${expiresAt}.${mac(authToken, callId, expiresAt)}`;
}

export type CredentialCheck = 'valid' | 'expired' | 'invalid';

/** Whether a credential was made for callId with this key and has not expired (constant-time comparison). */
export function checkStreamCredential(authToken: string, callId: string, credential: string | undefined, nowMs = Date.now()): CredentialCheck {
  const m = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(credential ?? '');
  if (!m) return 'invalid';
  const expiresAt = Number(m[1]);
  const expected = Buffer.from(mac(authToken, callId, expiresAt));
  const given = Buffer.from(m[2]!);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  return expiresAt * 1000 < nowMs ? 'expired' : 'valid';
}
