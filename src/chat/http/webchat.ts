import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { publicUrls } from '../../core/config';
import { createChatSession, findFlow } from '../db/chat';
import type { Queryable } from '../../db/pool';
import { badRequest, forbidden, notFound } from '../../http/api-error';
import { isUuid } from '../../core/ids';
import { normalizeRecordPhone, splitRecordFor } from '../../leads/record';
import { workspaceRegion } from '../../leads/region';
import { originAllowed } from '../webchat/origins';
import { SESSION_PREFIX } from '../webchat/sockets';
import { defineRoute } from '../../http/route';
import { byRecord } from '../../journeys/http/enrollments';
import { CreateLeadBody } from '../../leads/http/lead-schemas';

const FLOW_NOT_FOUND = 'Flow not found';

/**
 * An anonymous visitor's record, checked as the lead routes check one (400 otherwise) and kept on the session only:
 * it names no lead, so no lead on file is read or changed through it.
 */
async function visitorRecord(db: Queryable, workspaceId: string, record: Record<string, unknown>): Promise<Record<string, unknown>> {
  const phone = normalizeRecordPhone(record.phone, await workspaceRegion(db, workspaceId));
  if (!phone) throw badRequest('Could not find or create lead');
  const { standard, custom } = await splitRecordFor(db, workspaceId, record);
  return { ...standard, ...custom, phone };
}

const SessionBody = z.object({
  record: CreateLeadBody.describe('Lead data: phone required; first_name, last_name and further fields (custom fields as on the lead routes)'),
  flow_id: z.string().describe('UUID of the flow to chat with (a flow opened for public chat)'),
});

const ChatSession = z.object({
  flow_id: z.guid().describe('UUID of the flow'),
  session: z.string().describe('Session identifier, form webchat-session.<uuid>: the session segment of the WebSocket URL'),
  flow_port: z.int().describe('Port of the WebSocket'),
  wss_test_url: z.string().describe('Host name of the WebSocket server'),
});

/**
 * POST {hooks_url}/webchat/session. With the flow's workspace API key (a server-side call): a session for the lead
 * matched (or created) by phone. Without one (a browser): an anonymous session holding the record apart from every lead.
 */
const createChatSessionRoute = defineRoute({
  method: 'post',
  path: '/webchat/session',
  tag: 'Web chat',
  summary: 'Initialise a chat session with lead data',
  description:
    "With Authorization: Bearer <API key of the flow's workspace> (call it from your server, never from a browser): matches the " +
    'lead by phone (any common format, normalised) or creates it from the record (a matched lead is kept as on file); the ' +
    "conversation's answers are then captured into that lead. Without a key: an anonymous session; the record is checked and kept " +
    'on the session, apart from every lead, and no lead is read or changed by the chat. ' +
    'Then connect to {wss_url}/webchat/flow/{flow_id}/session/{session}/r/false. Unknown flows, flows not opened for public chat and ' +
    "another workspace's key are 404; a browser Origin outside the flow's allowed origins is 403. Rate-limited per API key, or per " +
    'client address without one.',
  auth: 'optionalApiKey',
  body: SessionBody,
  example: { body: { record: { phone: '17145551234', first_name: 'Ann', last_name: 'Lee' }, flow_id: '7d3c2c4e-1f7a-4a43-9a39-2a6f1d2c9b10' } },
  responses: {
    200: { description: 'The chat session', schema: ChatSession },
    400: { description: 'Missing or invalid phone, or another invalid field' },
    401: { description: 'An invalid or revoked API key (leave Authorization out for an anonymous session)' },
    403: { description: "The request's Origin is not among the flow's allowed origins" },
    404: { description: 'Flow not found (or not opened for public chat)' },
  },
  async handler(input) {
    const { db, config } = input.deps;
    const { flow_id: flowId, record } = input.body;
    const flow = isUuid(flowId) ? await findFlow(db, flowId) : undefined;
    if (!flow || !flow.public_chat) throw notFound(FLOW_NOT_FOUND);
    // A key of another workspace learns nothing of this flow.
    if (input.auth && input.auth.workspaceId !== flow.workspace_id) throw notFound(FLOW_NOT_FOUND);
    const origin = input.ctx.get('origin') || undefined;
    if (!originAllowed(flow, origin, config)) throw forbidden('Origin not allowed for this flow');
    if (origin) {
      input.ctx.set('Access-Control-Allow-Origin', origin);
      input.ctx.set('Vary', 'Origin');
    }
    const session = SESSION_PREFIX + randomUUID();
    if (input.auth) {
      const { lead } = await byRecord(db, flow.workspace_id, record, false);
      await createChatSession(db, { id: session, workspaceId: flow.workspace_id, flowId: flow.id, leadId: lead.id });
    } else {
      const visitor = await visitorRecord(db, flow.workspace_id, record);
      await createChatSession(db, { id: session, workspaceId: flow.workspace_id, flowId: flow.id, leadId: null, record: visitor });
    }
    const wss = new URL(publicUrls(config).wss_url);
    const defaultPort = Number(wss.port) || (wss.protocol === 'wss:' ? 443 : 80);
    return { flow_id: flow.id, session, flow_port: config.WEBCHAT_PUBLIC_PORT ?? defaultPort, wss_test_url: config.WEBCHAT_PUBLIC_HOST ?? wss.hostname };
  },
});

/** The routes of the hooks host (chat): a key is optional; rate-limited per key, or per address without one. */
export const webchatRoutes = [createChatSessionRoute];
