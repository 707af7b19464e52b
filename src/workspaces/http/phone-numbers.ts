import { addPhoneNumber, assignPhoneNumber, PHONE_NUMBER_NOT_FOUND } from '../../agents/manage';
import { PhoneNumberAddInput, PhoneNumberAssignInput } from '../../agents/schema';
import type { Queryable } from '../../db/pool';
import { findPhoneNumber, listPhoneNumbers } from '../db/phone-numbers';
import { notFound } from '../../http/api-error';
import { encodeCursor } from '../../http/cursor';
import { defineRoute, workspaceOf } from '../../http/route';
import { ListQuery, PhoneNumberBody, PhoneNumberPage } from '../../agents/http/agent-schemas';
import { keysetPage } from '../../http/keyset-page';
import { presentPhoneNumber } from '../../agents/http/agent-present';

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

async function numberAnswer(db: Queryable, workspaceId: string, id: string) {
  const row = await findPhoneNumber(db, workspaceId, { id });
  if (!row) throw notFound(PHONE_NUMBER_NOT_FOUND);
  return { status: 'success' as const, phone_number: presentPhoneNumber(row) };
}

/** POST /v1/phone-numbers: adds a number to the workspace, optionally in an agent's phone group. */
export const addPhoneNumberRoute = defineRoute({
  method: 'post',
  path: '/v1/phone-numbers',
  tag: TAG,
  summary: 'Add a phone number',
  description:
    "Normalised like every phone (the workspace's region for a number without country code). With agent_id the number joins that " +
    "agent's phone group (created if it has none). A number belongs to one workspace: one this workspace has → 409 with its id; one " +
    "another workspace holds → 409 (which one is not said). Another workspace's agent → 404. Honours Idempotency-Key " +
    '(same as `switchboard phone-number add`).',
  auth: 'apiKey',
  idempotent: true,
  body: PhoneNumberAddInput,
  example: { body: { number: '17145550101', agent_id: '3f2b8c4e-9a61-4d2f-b7e3-5c1a0d9e8f47' } },
  responses: {
    200: { description: 'The number as added', schema: PhoneNumberBody },
    400: { description: 'An invalid number or agent_id' },
    404: { description: 'Agent not found' },
    409: { description: "The number is already this workspace's or another workspace's" },
  },
  async handler(input) {
    const ws = workspaceOf(input);
    return numberAnswer(input.deps.db, ws, await addPhoneNumber(input.deps.db, ws, input.body));
  },
});

/** PATCH /v1/phone-numbers/{number}: moves a number to another agent of the workspace, or detaches it. */
export const assignPhoneNumberRoute = defineRoute({
  method: 'patch',
  path: '/v1/phone-numbers/:number',
  tag: TAG,
  summary: 'Move or detach a phone number',
  description:
    'The number (its id, or the number in any written form) joins the phone group of agent_id (created if the agent has none), or ' +
    "with agent_id null leaves every agent and stays the workspace's. Another workspace's number or agent → 404. Honours Idempotency-Key.",
  auth: 'apiKey',
  idempotent: true,
  body: PhoneNumberAssignInput,
  example: { params: { number: '17145550101' }, body: { agent_id: null } },
  responses: {
    200: { description: 'The number as moved', schema: PhoneNumberBody },
    400: { description: 'A malformed agent_id' },
    404: { description: 'Phone number or agent not found' },
  },
  async handler(input) {
    const ws = workspaceOf(input);
    return numberAnswer(input.deps.db, ws, await assignPhoneNumber(input.deps.db, ws, input.params.number ?? '', input.body.agent_id));
  },
});
