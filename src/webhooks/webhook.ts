import { createHash, createHmac } from 'node:crypto';
import { guardedOutboundRequest } from '../net/outbound';
import type { SsrfOptions } from '../net/ssrf';

/**
 * Header carrying `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` (Stripe's scheme); during a secret
 * rotation's grace period one v1 per valid secret (`t=…,v1=<new>,v1=<previous>`): a receiver accepts any match.
 */
export const SIGNATURE_HEADER = 'switchboard-signature';
/** Header carrying the event id: the same on every retry of one step, so receivers can drop repeats. */
export const EVENT_ID_HEADER = 'switchboard-event-id';

/** The signature header value for a body sent at unix time t: one v1 per secret, in the order given. */
export function signWebhook(secrets: string[], t: number, body: string): string {
  return [`t=${t}`, ...secrets.map((secret) => `v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`)].join(',');
}

/** The event id of one step run of one enrollment (stable across retries and worker restarts). */
export function webhookEventId(enrollmentId: string, stepId: string, seq: number): string {
  return `evt_${createHash('sha256').update(`${enrollmentId}\n${stepId}\n${seq}`).digest('hex').slice(0, 32)}`;
}

// Own properties only: `{{lead.constructor}}` or `{{lead.__proto__}}` must not reach Object and its functions.
const lookup = (vars: Record<string, unknown>, path: string): unknown =>
  path.split('.').reduce<unknown>((v, key) => (v && typeof v === 'object' && Object.hasOwn(v, key) ? (v as Record<string, unknown>)[key] : undefined), vars);

/** Fills `{{path}}` placeholders in a JSON template; a string that is just one placeholder takes the value's own type. */
export function renderTemplate(template: unknown, vars: Record<string, unknown>): unknown {
  if (typeof template === 'string') {
    const whole = /^\{\{\s*([\w.]+)\s*\}\}$/.exec(template);
    if (whole) return lookup(vars, whole[1]!) ?? null;
    return template.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_, path: string) => {
      const v = lookup(vars, path);
      return v === undefined || v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v);
    });
  }
  if (Array.isArray(template)) return template.map((t) => renderTemplate(t, vars));
  if (template && typeof template === 'object') {
    return Object.fromEntries(Object.entries(template).map(([k, v]) => [k, renderTemplate(v, vars)]));
  }
  return template;
}

/** How a delivery ended: delivered, or a failure the caller should (retryable) or should not retry. */
export type DeliveryResult = { ok: true; status: number } | { ok: false; retryable: boolean; status?: number; retryAfterMs?: number; reason: string };

/** Posts a signed JSON body to a user-supplied URL through the SSRF guard. 2xx delivered; 408/429/5xx/network retryable; other 4xx not. */
export async function deliverWebhook(
  w: { url: string; body: string; secrets: string[]; eventId: string; now?: number },
  ssrf: SsrfOptions,
): Promise<DeliveryResult> {
  const t = Math.floor((w.now ?? Date.now()) / 1000);
  let res;
  try {
    res = await guardedOutboundRequest(
      w.url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Switchboard-Webhooks/1.0',
          [EVENT_ID_HEADER]: w.eventId,
          [SIGNATURE_HEADER]: signWebhook(w.secrets, t, w.body),
        },
        body: w.body,
        timeoutMs: 10_000,
        maxResponseBytes: 1024,
        truncateResponse: true,
      },
      ssrf,
    );
  } catch (err) {
    const blocked = (err as { code?: string }).code === 'ssrf_blocked';
    return { ok: false, retryable: !blocked, reason: blocked ? `blocked: ${(err as Error).message}` : `network: ${(err as Error).message}` };
  }
  if (res.status >= 200 && res.status < 300) return { ok: true, status: res.status };
  const retryable = res.status === 408 || res.status === 429 || res.status >= 500;
  const after = Number(res.headers['retry-after']);
  return {
    ok: false,
    retryable,
    status: res.status,
    retryAfterMs: retryable && Number.isFinite(after) && after > 0 ? Math.min(after, 3600) * 1000 : undefined,
    reason: `HTTP ${res.status}`,
  };
}
