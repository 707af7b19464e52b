import type { AgentDetailRow } from '../../db/repos/agent-admin';
import type { PhoneNumberRow } from '../../db/repos/phone-numbers';
import { decodeCursor, encodeCursor } from '../cursor';
import { DEFAULT_PAGE_LIMIT } from './page-schemas';

/** An agent row as the api shows it. */
export const presentAgent = (a: AgentDetailRow) => ({
  id: a.id,
  name: a.name,
  profile_picture: a.profile_picture,
  transfer_number: a.transfer_number,
  call_window: a.call_window,
  phone_group_id: a.phone_group_id,
  numbers: a.numbers,
  created_at: a.created_at.toISOString(),
});

/** A phone number row as the api shows it. */
export const presentPhoneNumber = (p: PhoneNumberRow) => ({
  id: p.id,
  number: p.phone,
  agent_id: p.agent_id,
  phone_group_id: p.phone_group_id,
  created_at: p.created_at.toISOString(),
});

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
