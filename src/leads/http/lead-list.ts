import { searchLeads } from '../db/lead-search';
import { presentLead } from '../db/leads';
import { badRequest } from '../../http/api-error';
import { INVALID_PHONE, normalizeRecordPhone } from '../record';
import { workspaceRegion } from '../region';
import { encodeCursor } from '../../http/cursor';
import { keysetPage } from '../../http/keyset-page';
import { defineRoute, workspaceOf } from '../../http/route';
import { LeadPage, ListLeadsQuery } from './lead-list-schemas';

/** GET /v1/leads: the workspace's leads, filtered, newest first, a page at a time. */
export const listLeads = defineRoute({
  method: 'get',
  path: '/v1/leads',
  tag: 'Leads',
  summary: 'List and search leads',
  description:
    'Filters combine (all must hold). Newest first by creation time; pass next_cursor as cursor for the next page. Paging is ' +
    'stable while leads are written: a lead created after the first page is not listed in later pages, and no lead appears twice.',
  auth: 'apiKey',
  query: ListLeadsQuery,
  example: {
    query: {
      phone: ['17145551234', '+17145551235'],
      email: 'ann@example.com',
      tag: ['High_Priority', 'vip'],
      tag_match: 'any',
      updated_since: '2026-01-01T00:00:00Z',
      q: 'ann',
      limit: 20,
      cursor: encodeCursor({ at: '2026-06-01T12:00:00.000000Z', id: '3f2b8c4e-9a61-4d2f-b7e3-5c1a0d9e8f47' }),
    },
  },
  responses: {
    200: { description: 'A page of leads', schema: LeadPage },
    400: { description: 'A malformed filter, limit or cursor, or an invalid phone' },
  },
  async handler(input) {
    const ws = workspaceOf(input);
    const { db } = input.deps;
    const { phone, email, tag, tag_match, updated_since, q } = input.query;
    // The cursor is read first (keysetPage), the phones inside the read: a bad cursor is reported before a bad phone.
    const { page, next_cursor } = await keysetPage(input.query, async (limit, after) => {
      let phones: string[] | undefined;
      if (phone) {
        const region = await workspaceRegion(db, ws);
        phones = phone.map((p) => normalizeRecordPhone(p, region) ?? badPhone());
      }
      const filter = { phones, email, tags: tag, tagMatch: tag_match, updatedSince: updated_since ? new Date(updated_since) : undefined, q };
      return searchLeads(db, ws, filter, limit, after);
    });
    return { status: 'success' as const, leads: page.map(presentLead), next_cursor };
  },
});

function badPhone(): never {
  throw badRequest(`phone: ${INVALID_PHONE}`);
}
