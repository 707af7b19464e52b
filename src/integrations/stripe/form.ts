import { z } from 'zod';
import type { Connection, QueryValue } from '../define';

/** Stripe metadata: up to 50 keys (≤ 40 chars) with values ≤ 500 chars. */
export const metadata = z
  .record(
    z
      .string()
      .min(1)
      .max(40)
      .regex(/^[^[\]]+$/),
    z.string().max(500),
  )
  .refine((m) => Object.keys(m).length <= 50, { message: 'at most 50 metadata keys' })
  .optional()
  .describe('Key-value pairs stored on the object');

/** Flattens metadata into Stripe's bracket form keys (`metadata[call_id]`). */
export function metadataForm(m: Record<string, string> | undefined): Record<string, QueryValue> {
  return Object.fromEntries(Object.entries(m ?? {}).map(([k, v]) => [`metadata[${k}]`, v]));
}

/** Headers of a Stripe create: the run's idempotency key, and the connection's pinned API version if it has one. */
export function createHeaders(conn: Connection, idempotencyKey: string): Record<string, string> {
  return { 'Idempotency-Key': idempotencyKey, ...(conn.settings.api_version ? { 'Stripe-Version': conn.settings.api_version } : {}) };
}
