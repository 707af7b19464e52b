import { z } from 'zod';
import { notFound } from '../../http/api-error';
import { keysetPage } from '../../http/keyset-page';
import { defineRoute, workspaceOf } from '../../http/route';
import { NextCursor, PageCursor, PageLimit, DEFAULT_PAGE_LIMIT } from '../../http/page-schemas';
import { chatSessionInWorkspace, listChatSessions, transcriptPage, type ChatSessionSummaryRow } from '../db/transcripts';
import { isSessionId } from '../webchat/sockets';

const TAG = 'Chat';
const SESSION_NOT_FOUND = 'Chat session not found';
const EXAMPLE_SESSION = 'webchat-session.6f1c7a52-8a0e-4a8e-9a53-1f8f3d0c2b11';
const uuidOrRequired = { error: (i: { input?: unknown }) => (i.input === undefined ? 'required' : 'must be a UUID') };

const TranscriptQuery = z.strictObject({
  limit: PageLimit.optional(),
  cursor: z
    .string()
    .regex(/^\d{1,9}$/, 'a next_cursor of this transcript')
    .optional()
    .describe('next_cursor of the previous page'),
});

const TranscriptMessage = z.object({
  id: z.string().describe('Message id (the id of its frame)'),
  sender: z.enum(['user', 'bot']),
  content: z.string(),
  created_at: z.iso.datetime(),
});

/** GET /v1/chat/sessions/{session}/messages: a conversation's transcript, oldest first, a page at a time. */
const chatTranscriptRoute = defineRoute({
  method: 'get',
  path: '/v1/chat/sessions/:session/messages',
  tag: TAG,
  summary: "Read a chat conversation's messages",
  description:
    "The stored messages of one conversation of the workspace, oldest first, as the chat showed them (the bot's and the " +
    "user's). A turn is stored a moment after it is answered. Another workspace's session is a 404.",
  auth: 'apiKey',
  query: TranscriptQuery,
  example: { params: { session: EXAMPLE_SESSION }, query: { limit: 50, cursor: '12' } },
  responses: {
    200: {
      description: 'A page of messages',
      schema: z.object({ status: z.literal('success'), session: z.string(), messages: z.array(TranscriptMessage), next_cursor: NextCursor }),
    },
    400: { description: 'A malformed limit or cursor' },
    404: { description: SESSION_NOT_FOUND },
  },
  async handler(input) {
    const ws = workspaceOf(input);
    const session = input.params.session ?? '';
    if (!isSessionId(session) || !(await chatSessionInWorkspace(input.deps.db, ws, session))) throw notFound(SESSION_NOT_FOUND);
    const limit = input.query.limit ?? DEFAULT_PAGE_LIMIT;
    const rows = await transcriptPage(input.deps.db, ws, session, Number(input.query.cursor ?? 0), limit + 1);
    const page = rows.slice(0, limit);
    return {
      status: 'success' as const,
      session,
      messages: page.map((m) => ({ id: m.id, sender: m.sender, content: m.content, created_at: m.created_at.toISOString() })),
      next_cursor: rows.length > limit ? String(page.at(-1)!.seq) : null,
    };
  },
});

const ListQuery = z.strictObject({
  limit: PageLimit.optional(),
  cursor: PageCursor.optional(),
  lead_id: z.guid(uuidOrRequired).optional().describe("Only this lead's conversations"),
  flow_id: z.guid(uuidOrRequired).optional().describe("Only this flow's conversations"),
});

const present = (s: ChatSessionSummaryRow) => ({
  session: s.session,
  flow_id: s.flow_id,
  lead_id: s.lead_id,
  created_at: s.created_at.toISOString(),
  ended: s.ended,
});

/** GET /v1/chat/sessions: the workspace's conversations newest first, per lead or flow when asked. */
const listChatSessionsRoute = defineRoute({
  method: 'get',
  path: '/v1/chat/sessions',
  tag: TAG,
  summary: 'List chat conversations',
  description: "Newest first; `lead_id` lists one lead's conversations (anonymous ones have lead_id null). Pass next_cursor as cursor for the next page.",
  auth: 'apiKey',
  query: ListQuery,
  example: {
    query: {
      limit: 20,
      cursor: '1767225600000000.6f1c7a52-8a0e-4a8e-9a53-1f8f3d0c2b11',
      lead_id: '3f2b8c4e-9a61-4d2f-b7e3-5c1a0d9e8f47',
      flow_id: '8d0b6a3e-2c4f-4e1a-9b7d-5f3e2a1c0b9d',
    },
  },
  responses: {
    200: {
      description: 'A page of conversations',
      schema: z.object({
        status: z.literal('success'),
        sessions: z.array(
          z.object({
            session: z.string(),
            flow_id: z.string(),
            lead_id: z.string().nullable(),
            created_at: z.iso.datetime(),
            ended: z.boolean().describe('The flow reached its end'),
          }),
        ),
        next_cursor: NextCursor,
      }),
    },
    400: { description: 'A malformed limit, cursor, lead_id or flow_id' },
  },
  async handler(input) {
    const ws = workspaceOf(input);
    const filter = { leadId: input.query.lead_id?.toLowerCase(), flowId: input.query.flow_id?.toLowerCase() };
    const { page, next_cursor } = await keysetPage(input.query, (limit, after) => listChatSessions(input.deps.db, ws, filter, limit, after));
    return { status: 'success' as const, sessions: page.map(present), next_cursor };
  },
});

export const chatSessionRoutes = [listChatSessionsRoute, chatTranscriptRoute];
