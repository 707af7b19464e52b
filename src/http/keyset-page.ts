import { decodeCursor, encodeCursor } from './cursor';
import { DEFAULT_PAGE_LIMIT } from './page-schemas';

/** Reads a page of a newest-first (created_at, id) listing: one row more than the page tells whether another follows. */
export async function keysetPage<R extends { id: string; position: string }>(
  query: { limit?: number; cursor?: string },
  read: (limit: number, after?: { createdAt: string; id: string }) => Promise<R[]>,
): Promise<{ page: R[]; next_cursor: string | null }> {
  const limit = query.limit ?? DEFAULT_PAGE_LIMIT;
  const after = query.cursor ? decodeCursor(query.cursor) : undefined;
  const rows = await read(limit + 1, after && { createdAt: after.at, id: after.id });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, next_cursor: rows.length > limit && last ? encodeCursor({ at: last.position, id: last.id }) : null };
}
