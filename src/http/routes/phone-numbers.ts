import { listPhoneNumbers } from '../../db/repos/phone-numbers';
import { encodeCursor } from '../cursor';
import { defineRoute, workspaceOf } from '../route';
import { ListQuery, PhoneNumberPage } from './agent-schemas';
import { keysetPage, presentPhoneNumber } from './agent-present';

const TAG = 'Phone numbers';

/** GET /v1/phone-numbers: the workspace's numbers, each with the agent it belongs to, newest first. */
export const listPhoneNumbersRoute = defineRoute({
  method: 'get',
  path: '/v1/phone-numbers',
  tag: TAG,
  summary: 'List phone numbers',
  description:
    "The workspace's caller ids, newest first, each with the agent whose phone group holds it (null: none). Every number listed is a valid " +
    '`from` of POST /v1/agent. Pass next_cursor as cursor for the next page.',
  auth: 'apiKey',
  query: ListQuery,
  example: { query: { limit: 20, cursor: encodeCursor({ at: '2026-06-01T12:00:00.000000Z', id: '0b6f3c1e-8a2d-4f5b-9c7e-1d2a3b4c5d6e' }) } },
  responses: {
    200: { description: 'A page of phone numbers', schema: PhoneNumberPage },
    400: { description: 'A malformed limit or cursor' },
  },
  async handler(input) {
    const ws = workspaceOf(input);
    const { page, next_cursor } = await keysetPage(input.query, (limit, after) => listPhoneNumbers(input.deps.db, ws, limit, after));
    return { status: 'success' as const, phone_numbers: page.map(presentPhoneNumber), next_cursor };
  },
});
