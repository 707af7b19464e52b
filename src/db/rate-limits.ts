import type { Queryable } from './pool';

/** Hits one process counted for a bucket in one window since it last reported. */
export interface WindowHits {
  bucket: string;
  /** Window start, ms since the epoch. */
  windowStart: number;
  windowMs: number;
  hits: number;
}

/** A bucket's count across every process, in the newest window the database knows for it. */
export interface WindowTotal {
  bucket: string;
  windowStart: number;
  hits: number;
}

/**
 * Adds several buckets' hits in one upsert statement and returns their totals. A report for a window older than the
 * stored one is dropped (a late report must not reset a newer window); a newer window starts the count afresh.
 */
export async function addWindowHits(db: Queryable, batch: WindowHits[]): Promise<WindowTotal[]> {
  if (batch.length === 0) return [];
  const rows = await db.query<{ bucket: string; window_start: string; hits: number }>(
    `INSERT INTO rate_limits AS r (bucket, window_start, expires_at, hits)
     SELECT b, w, to_timestamp((w + l) / 1000.0), h FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::int[]) AS x(b, w, l, h)
     ON CONFLICT (bucket) DO UPDATE SET
       hits = CASE WHEN r.window_start = EXCLUDED.window_start THEN r.hits + EXCLUDED.hits
                   WHEN r.window_start < EXCLUDED.window_start THEN EXCLUDED.hits
                   ELSE r.hits END,
       window_start = GREATEST(r.window_start, EXCLUDED.window_start),
       expires_at = CASE WHEN r.window_start <= EXCLUDED.window_start THEN EXCLUDED.expires_at ELSE r.expires_at END
     RETURNING bucket, window_start, hits`,
    [batch.map((b) => b.bucket), batch.map((b) => b.windowStart), batch.map((b) => b.windowMs), batch.map((b) => b.hits)],
  );
  return rows.map((r) => ({ bucket: r.bucket, windowStart: Number(r.window_start), hits: r.hits }));
}

/** Deletes counters whose window has ended. */
export async function deleteExpiredWindows(db: Queryable): Promise<void> {
  await db.query('DELETE FROM rate_limits WHERE expires_at < now()');
}
