import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header Twilio (and the simulator) sign status callbacks with. */
export const TWILIO_SIGNATURE_HEADER = 'x-twilio-signature';

/** Form parameters as received: a parsed body, or a map where a repeated name carries every value. */
export type FormParams = URLSearchParams | Record<string, string | string[]>;

const pairs = (params: FormParams): [string, string][] =>
  params instanceof URLSearchParams
    ? [...params.entries()]
    : Object.entries(params).flatMap(([name, v]) => (Array.isArray(v) ? v : [v]).map((value): [string, string] => [name, value]));

/**
 * X-Twilio-Signature of a POST: base64 HMAC-SHA1, keyed by the auth token, of the full URL (query included, exactly
 * as called) followed by every POST parameter sorted by name, each as name then value with no separators
 * (https://www.twilio.com/docs/usage/security#validating-requests). Repeated names are ordered by value.
 */
export function twilioSignature(authToken: string, url: string, params: FormParams): string {
  const sorted = pairs(params).sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  const data = url + sorted.map(([name, value]) => name + value).join('');
  return createHmac('sha1', authToken).update(data, 'utf8').digest('base64');
}

/** Whether a received X-Twilio-Signature matches; constant-time, and false when missing. */
export function verifyTwilioSignature(authToken: string, url: string, params: FormParams, signature: string | undefined | null): boolean {
  if (!signature) return false;
  const expected = Buffer.from(twilioSignature(authToken, url, params));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
