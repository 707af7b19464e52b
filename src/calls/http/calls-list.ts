import { z } from 'zod';
import { CALL_STATUSES, CallRecord, presentCallRecord } from '../call-record';
import { listCalls, type CallsCursor } from '../db/calls-list';
import { documentAs } from '../../core/documented';
import { CURSOR_PATTERN } from '../../http/cursor';
import { defineRoute, workspaceOf } from '../../http/route';

const MAX_LIMIT = 200;
const DEFAULT_LIMIT = 50;

const orRequired = (message: string) => ({ error: (i: { input?: unknown }) => (i.input === undefined ? 'required' : message) });
const Limit = documentAs(
  z
    .string()
    .regex(/^\d{1,3}$/, `an integer from 1 to ${MAX_LIMIT}`)
    .transform(Number)
    .refine((n) => n >= 1 && n <= MAX_LIMIT, `an integer from 1 to ${MAX_LIMIT}`),
  { type: 'string', pattern: '^(?:[1-9]|[1-9][0-9]|1[0-9][0-9]|200)$', examples: ['50'] },
);
const Query = z.strictObject({
  limit: Limit.optional().describe(`Calls per page, 1–${MAX_LIMIT} (default ${DEFAULT_LIMIT})`),
  cursor: z.string().regex(CURSOR_PATTERN, 'a next_cursor of this list').optional().describe('next_cursor of the previous page'),
  status: z.enum(CALL_STATUSES).optional().describe('Only calls with this lifecycle status'),
  agent_id: z.guid(orRequired('must be a UUID')).optional().describe('Only calls by this agent'),
  lead_id: z.guid(orRequired('must be a UUID')).optional().describe("Only calls to this lead's number"),
  since: z.iso.datetime({ offset: true, error: 'an ISO-8601 date-time with a time zone' }).optional().describe('Only calls created at or after this time'),
});

const encodeCursor = (c: CallsCursor) => `${c.createdAtUs}.${c.id}`;
const decodeCursor = (text: string): CallsCursor => {
  const m = CURSOR_PATTERN.exec(text)!;
  return { createdAtUs: m[1]!, id: m[2]!.toLowerCase() };
};

/** GET /v1/calls: the workspace's calls, newest first, a page at a time. */
export const listCallsRoute = defineRoute({
  method: 'get',
  path: '/v1/calls',
  tag: 'Calls',
  summary: "List the workspace's calls",
  description:
    'Calls newest first (transfer legs are not listed on their own: each call carries its `legs`, in order, as GET /v1/calls/get ' +
    'shows them). Pass `next_cursor` as `cursor` for the next page; it is null on the last page. Filters combine (AND).',
  auth: 'apiKey',
  query: Query,
  example: {
    query: {
      limit: '20',
      cursor: '1767225600000000.3f2b8c4e-9a61-4d2f-b7e3-5c1a0d9e8f47',
      status: 'completed',
      agent_id: '6f1c7a52-8a0e-4a8e-9a53-1f8f3d0c2b11',
      lead_id: '3f2b8c4e-9a61-4d2f-b7e3-5c1a0d9e8f47',
      since: '2026-01-01T00:00:00Z',
    },
  },
  responses: {
    200: {
      description: 'A page of calls',
      schema: z.object({
        status: z.literal('success'),
        calls: z.array(CallRecord.extend({ legs: z.array(CallRecord) })),
        next_cursor: z.string().nullable(),
      }),
    },
    400: { description: 'A bad limit, cursor, status, agent_id, lead_id or since' },
  },
  async handler(input) {
    const q = input.query;
    const limit = q.limit ?? DEFAULT_LIMIT;
    const after = q.cursor === undefined ? undefined : decodeCursor(q.cursor);
    const filter = { status: q.status, agentId: q.agent_id, leadId: q.lead_id, since: q.since === undefined ? undefined : new Date(q.since) };
    const page = await listCalls(input.deps.db, workspaceOf(input), filter, limit + 1, after);
    const shown = page.slice(0, limit);
    return {
      status: 'success',
      calls: shown.map((c) => ({ ...presentCallRecord(c.row), legs: c.legs.map(presentCallRecord) })),
      next_cursor: page.length > limit ? encodeCursor(shown.at(-1)!.cursor) : null,
    };
  },
});
