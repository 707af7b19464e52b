/**
 * What automation_runs keeps of requests and results: structure, numbers, booleans and the few strings that are ids
 * or codes. Every other string (names, emails, phones, message text, tokens) becomes "[redacted]".
 */
const KEEP =
  /^(id|.*_id|.*Id|ids|action|automationType|nodeId|status|ts|channel|type|kind|apiMethod|authenticationSelect|contentType|responseType|existing|calendarId|sendUpdates|durationMinutes|findFreeSlot)$/;
const SECRET = /(token|secret|password|passwd|authorization|api_?key|cookie|signature|credential)/i;
const MAX_DEPTH = 8;

/** A copy of value with personal data and secrets replaced. */
export function redact(value: unknown, key = '', depth = 0): unknown {
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'string') return KEEP.test(key) && !SECRET.test(key) && value.length <= 128 && !value.includes('\u0000') ? value : '[redacted]';
  if (depth >= MAX_DEPTH) return '[redacted]';
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => redact(v, key, depth + 1));
  if (typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k.replaceAll('\u0000', ''), SECRET.test(k) ? '[redacted]' : redact(v, k, depth + 1)]),
    );
  }
  return undefined;
}

/** An error message with e-mail addresses and phone-like digit runs masked (vendors echo input back). */
export function redactMessage(message: string): string {
  return message
    .replaceAll('\u0000', '')
    .replace(/[^\s"'<>()]+@[^\s"'<>()]+/g, '[email]')
    .replace(/\+?\d[\d ().-]{6,}\d/g, '[number]')
    .slice(0, 1000);
}
