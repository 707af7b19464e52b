import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { publicUrls } from '../../config';
import { createChatSession, findFlow } from '../../db/repos/chat';
import { forbidden, notFound } from '../../errors';
import { isUuid } from '../../ids';
import { originAllowed } from '../../webchat/origins';
import { SESSION_PREFIX } from '../../webchat/sockets';
import { defineRoute } from '../route';
import { byRecord } from './enrollments';
import { CreateLeadBody } from './lead-schemas';

const FLOW_NOT_FOUND = 'Flow not found';

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

/** POST {hooks_url}/webchat/session: a chat session for a lead matched (or created) by phone. */
export const createChatSessionRoute = defineRoute({
  method: 'post',
  path: '/webchat/session',
  tag: 'Web chat',
  summary: 'Initialise a chat session with lead data',
  description:
    'Matches the lead by phone (any common format, normalised) or creates it from the record; a matched lead is kept as on file. ' +
    'Then connect to {wss_url}/webchat/flow/{flow_id}/session/{session}/r/false. Unknown flows and flows not opened for public chat ' +
    "are 404; a browser Origin outside the flow's allowed origins is 403. Rate-limited per client address.",
  auth: 'none',
  body: SessionBody,
  example: { body: { record: { phone: '17145551234', first_name: 'Ann', last_name: 'Lee' }, flow_id: '7d3c2c4e-1f7a-4a43-9a39-2a6f1d2c9b10' } },
  responses: {
    200: { description: 'The chat session', schema: ChatSession },
    400: { description: 'Missing or invalid phone, or another invalid field' },
    403: { description: "The request's Origin is not among the flow's allowed origins" },
    404: { description: 'Flow not found (or not opened for public chat)' },
  },
  async handler(input) {
    const { db, config } = input.deps;
    const { flow_id: flowId, record } = input.body;
    const flow = isUuid(flowId) ? await findFlow(db, flowId) : undefined;
    if (!flow || !flow.public_chat) throw notFound(FLOW_NOT_FOUND);
    const origin = input.ctx.get('origin') || undefined;
    if (!originAllowed(flow, origin, config)) throw forbidden('Origin not allowed for this flow');
    if (origin) {
      input.ctx.set('Access-Control-Allow-Origin', origin);
      input.ctx.set('Vary', 'Origin');
    }
    const { lead } = await byRecord(db, flow.workspace_id, record, false);
    const session = SESSION_PREFIX + randomUUID();
    await createChatSession(db, { id: session, workspaceId: flow.workspace_id, flowId: flow.id, leadId: lead.id });
    const wss = new URL(publicUrls(config).wss_url);
    const defaultPort = Number(wss.port) || (wss.protocol === 'wss:' ? 443 : 80);
    return { flow_id: flow.id, session, flow_port: config.WEBCHAT_PUBLIC_PORT ?? defaultPort, wss_test_url: config.WEBCHAT_PUBLIC_HOST ?? wss.hostname };
  },
});

/** The routes of the hooks host (chat), unauthenticated and rate-limited per address. */
export const webchatRoutes = [createChatSessionRoute];
