import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The short-lived credential a TwiML answer hands Twilio in a `<Parameter>` and Twilio gives back in the stream's
 * `start.customParameters`: `<expiry, unix seconds>.<nonce>.<base64url HMAC-SHA256>` over the call id, its workspace,
 * the resume flag, the expiry and the nonce. It opens a stream for that call only, until it expires, and the nonce
 * lets the voice process take each credential once. Keyed by a key derived from the Twilio auth token, which the api
 * (that writes it) and the voice process (that checks it) both hold.
 */
const DOMAIN = 'switchboard voice-stream credential v1';

/** What a credential is bound to. */
export interface StreamBinding {
  callId: string;
  workspaceId: string;
  resume: boolean;
}

const keyOf = (authToken: string) => createHmac('sha256', authToken).update(DOMAIN).digest();

const mac = (authToken: string, b: StreamBinding, expiresAt: number, nonce: string) =>
  createHmac('sha256', keyOf(authToken))
    .update([b.callId, b.workspaceId, b.resume ? '1' : '0', expiresAt, nonce].join('\n'))
    .digest('base64url');

/** A credential for the binding, valid until nowMs + ttlSeconds. */
export function streamCredential(authToken: string, binding: StreamBinding, ttlSeconds: number, nowMs = Date.now()): string {
  const expiresAt = Math.floor(nowMs / 1000) + ttlSeconds;
  const nonce = randomBytes(12).toString('base64url');
  return `${expiresAt}.${nonce}.${mac(authToken, binding, expiresAt, nonce)}`;
}

export type CredentialCheck = { status: 'valid' | 'expired'; nonce: string } | { status: 'invalid' };

/** Whether a credential was made for this binding with this key, and whether it has expired (constant-time comparison). */
export function checkStreamCredential(authToken: string, binding: StreamBinding, credential: string | undefined, nowMs = Date.now()): CredentialCheck {
  const m = /^(\d{1,12})\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{43})$/.exec(credential ?? '');
  if (!m) return { status: 'invalid' };
  const expiresAt = Number(m[1]);
  const nonce = m[2]!;
  const expected = Buffer.from(mac(authToken, binding, expiresAt, nonce));
  const given = Buffer.from(m[3]!);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { status: 'invalid' };
  return { status: expiresAt * 1000 < nowMs ? 'expired' : 'valid', nonce };
}
