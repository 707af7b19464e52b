import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { CALL_EVENT_TYPES, SUBSCRIPTION_EVENT_TYPES } from '../events';
import { checkSubscriptionUrl } from '../events-url';
import { createCallSubscription, deleteCallSubscription, listCallSubscriptions, type CallSubscription } from '../db/call-events';
import { NO_NUL_PATTERN } from '../../core/documented';
import { badRequest, conflict, notFound } from '../../http/api-error';
import { EVENT_ID_HEADER, SIGNATURE_HEADER } from '../../webhooks/webhook';
import { ssrfAllowlist } from '../../net/ssrf';
import { defineRoute, workspaceOf } from '../../http/route';

const TAG = 'Calls';
/** How many subscriptions a workspace may hold. */
const MAX_CALL_SUBSCRIPTIONS = 25;
const NOT_FOUND = 'Subscription not found';

const SubscriptionId = z.guid({ error: (i) => (i.input === undefined ? 'required' : 'must be a UUID') }).describe('Subscription UUID');
const Subscription = z.object({
  id: z.guid(),
  url: z.string(),
  events: z.array(z.enum(SUBSCRIPTION_EVENT_TYPES)),
  created_at: z.iso.datetime(),
});

const CreateBody = z.strictObject({
  url: z
    .string({ error: (i) => (i.input === undefined ? 'required' : 'must be a string') })
    .max(2048)
    .regex(/^https?:\/\//i, 'an http(s) URL')
    .regex(new RegExp(NO_NUL_PATTERN), 'no NUL characters')
    .meta({ format: 'uri' })
    .describe('http(s) URL the events are POSTed to; it must be public (or in SSRF_ALLOWLIST)'),
  events: z
    .array(z.enum(SUBSCRIPTION_EVENT_TYPES))
    .min(1)
    .max(SUBSCRIPTION_EVENT_TYPES.length)
    .refine((e) => new Set(e).size === e.length, 'no event type twice')
    .meta({ uniqueItems: true })
    .optional()
    .describe('Event types to receive; default call.started and call.completed'),
});

const present = (s: CallSubscription) => ({ id: s.id, url: s.url, events: s.events, created_at: s.created_at.toISOString() });

const DELIVERY =
  `Each event is POSTed as JSON \`{id, type, created_at, data: {call, legs}}\` (call and legs as GET /v1/calls/get shows them), ` +
  `signed like the journey webhooks: \`${SIGNATURE_HEADER}: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>\` with the ` +
  `workspace's webhook secret (GET /v1/journeys/webhook-secret; one v1 per secret during a rotation), and \`${EVENT_ID_HEADER}\`, ` +
  'the same on every retry. 5xx, 408, 429 and network errors are retried with backoff for up to 24 hours; any other 4xx is final. ' +
  'A subscriber that answered 2xx never gets the same event again.';

/** POST /v1/calls/subscriptions: subscribe a URL to call events. */
export const createCallSubscriptionRoute = defineRoute({
  method: 'post',
  path: '/v1/calls/subscriptions',
  tag: TAG,
  summary: 'Subscribe a URL to call events',
  description:
    `Events: call.started (the provider accepted the call), call.completed (the call ended; with its transfer legs), connection.broken (a vendor refused to renew a connection's token: ` +
    '`data: {connection}` as GET /v1/connections/{id} shows it; connect it again to mend it); campaign.started, campaign.completed (`data: {campaign}` as GET /v1/campaigns/{id} shows it). ' +
    `${DELIVERY} At most ${MAX_CALL_SUBSCRIPTIONS} subscriptions per workspace.`,
  auth: 'apiKey',
  idempotent: true,
  body: CreateBody,
  example: { body: { url: 'https://hooks.example.com/calls', events: ['call.completed'] } },
  links: {
    Delete: { operationId: 'deleteV1CallsSubscriptions', parameters: { id: '$response.body#/subscription/id' }, description: 'Delete the new subscription' },
  },
  responses: {
    200: { description: 'The subscription', schema: z.object({ status: z.literal('success'), subscription: Subscription }) },
    400: { description: 'Missing or bad url (not http(s), credentials, a private or reserved address) or events' },
    409: { description: `The workspace already has ${MAX_CALL_SUBSCRIPTIONS} subscriptions` },
  },
  async handler(input) {
    const ws = workspaceOf(input);
    let url: URL;
    try {
      url = await checkSubscriptionUrl(input.body.url, { allow: ssrfAllowlist(input.deps.config.SSRF_ALLOWLIST) });
    } catch (err) {
      throw badRequest(`url: ${(err as Error).message}`);
    }
    const events = input.body.events ?? [...CALL_EVENT_TYPES];
    const row = await createCallSubscription(input.deps.db, { id: randomUUID(), workspaceId: ws, url: url.href, events }, MAX_CALL_SUBSCRIPTIONS);
    if (!row) throw conflict(`A workspace can have at most ${MAX_CALL_SUBSCRIPTIONS} call event subscriptions`);
    return { status: 'success', subscription: present(row) };
  },
});

/** GET /v1/calls/subscriptions: the workspace's subscriptions. */
export const listCallSubscriptionsRoute = defineRoute({
  method: 'get',
  path: '/v1/calls/subscriptions',
  tag: TAG,
  summary: 'List call event subscriptions',
  description: 'Oldest first.',
  auth: 'apiKey',
  responses: {
    200: { description: 'The subscriptions', schema: z.object({ status: z.literal('success'), subscriptions: z.array(Subscription) }) },
  },
  async handler(input) {
    return { status: 'success', subscriptions: (await listCallSubscriptions(input.deps.db, workspaceOf(input))).map(present) };
  },
});

/** DELETE /v1/calls/subscriptions?id=…: stop sending events to a URL. */
export const deleteCallSubscriptionRoute = defineRoute({
  method: 'delete',
  path: '/v1/calls/subscriptions',
  tag: TAG,
  summary: 'Delete a call event subscription',
  description: 'Events not yet delivered to it are dropped.',
  auth: 'apiKey',
  query: z.strictObject({ id: SubscriptionId }),
  example: { query: { id: '3f2b8c4e-9a61-4d2f-b7e3-5c1a0d9e8f47' } },
  responses: {
    200: { description: 'Deleted', schema: z.object({ status: z.literal('success'), id: z.guid(), message: z.string() }) },
    400: { description: 'Missing or malformed id' },
    404: { description: NOT_FOUND },
  },
  async handler(input) {
    if (!(await deleteCallSubscription(input.deps.db, workspaceOf(input), input.query.id))) throw notFound(NOT_FOUND);
    return { status: 'success', id: input.query.id, message: 'Subscription deleted' };
  },
});
