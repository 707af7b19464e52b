import { z } from 'zod';
import { deleteJourneyHooks, listJourneyHooks, type JourneyHookRow } from '../db/journey-hooks';
import { notFound } from '../../http/api-error';
import { subscribeToTrigger } from '../hooks';
import { encodeCursor } from '../../http/cursor';
import { keysetPage } from '../../http/keyset-page';
import { defineRoute, workspaceOf } from '../../http/route';
import { Hook, HookPage, ListHooksQuery, Subscribed, subscribeShape, TRIGGER_DELIVERY } from './hook-schemas';

const TAG = 'Hooks';
/** The message of a hook that is not the workspace's. */
export const HOOK_NOT_FOUND = 'Hook not found';

/** A hook row as both hosts answer it. */
const presentHook = (h: JourneyHookRow): z.infer<typeof Hook> => ({
  id: h.id,
  journey_id: h.journey_id,
  automation_node_id: h.step_id,
  webhook_url: h.url,
  platform: h.platform,
  created_at: h.created_at.toISOString(),
});

/** What both subscribe routes (/v1/hooks and the no-code host's) answer. */
export const SUBSCRIBE_RESPONSES = {
  200: { description: 'The hook (new or the existing one)', schema: Subscribed },
  400: { description: 'Missing or bad fields, a step that is not a trigger, or a webhook_url that is not http(s) or not public' },
  404: { description: 'No such journey in this workspace (Workflow not found), or no such step' },
  409: { description: 'The workspace already has the most hooks it may have' },
};

/** A subscribe body for the document. */
export const SUBSCRIBE_EXAMPLE = {
  journey_id: '3f2b8c4e-9a61-4d2f-b7e3-5c1a0d9e8f47',
  automation_node_id: 'handoff',
  webhook_url: 'https://hooks.example.com/journey',
  platform: 'n8n',
};

/** Subscribes the body's URL to the journey's trigger step in the workspace; the same step and URL give the same hook. */
export async function subscribe(
  deps: Parameters<typeof subscribeToTrigger>[0],
  workspaceId: string,
  b: { journey_id: string; automation_node_id: string; webhook_url: string; platform?: string },
) {
  const { hook } = await subscribeToTrigger(deps, workspaceId, {
    journeyId: b.journey_id,
    stepId: b.automation_node_id,
    url: b.webhook_url,
    platform: b.platform ?? 'api',
  });
  return { status: 'success' as const, hook_id: hook.id, hook: presentHook(hook) };
}

/** POST /v1/hooks: subscribe a URL to a journey's trigger step. */
export const createHookRoute = defineRoute({
  method: 'post',
  path: '/v1/hooks',
  tag: TAG,
  summary: 'Subscribe a URL to a journey trigger step (REST hook)',
  description: `Subscribing the same step and URL again answers the same hook_id. ${TRIGGER_DELIVERY}`,
  auth: 'apiKey',
  body: z.strictObject(subscribeShape),
  example: { body: SUBSCRIBE_EXAMPLE },
  links: { Delete: { operationId: 'deleteV1Hooks', parameters: { id: '$response.body#/hook_id' }, description: 'Delete the new hook' } },
  responses: SUBSCRIBE_RESPONSES,
  handler: (input) => subscribe(input.deps, workspaceOf(input), input.body),
});

/** GET /v1/hooks: the workspace's hooks, newest first. */
export const listHooksRoute = defineRoute({
  method: 'get',
  path: '/v1/hooks',
  tag: TAG,
  summary: 'List REST hooks',
  description:
    'Newest first, each with the latest event it settled (a subscriber that failed for good shows here); pass next_cursor as cursor for the next page.',
  auth: 'apiKey',
  query: ListHooksQuery,
  example: { query: { limit: 20, cursor: encodeCursor({ at: '2026-06-01T12:00:00.000000Z', id: '3f2b8c4e-9a61-4d2f-b7e3-5c1a0d9e8f47' }) } },
  responses: { 200: { description: 'A page of hooks', schema: HookPage }, 400: { description: 'A malformed limit or cursor' } },
  async handler(input) {
    const ws = workspaceOf(input);
    const { page, next_cursor } = await keysetPage(input.query, (limit, after) =>
      listJourneyHooks(input.deps.db, ws, limit, after && { at: after.createdAt, id: after.id }),
    );
    const hooks = page.map((h) => ({
      ...presentHook(h),
      last_delivery: h.last_delivery && { ...h.last_delivery, settled_at: new Date(h.last_delivery.settled_at).toISOString() },
    }));
    return { status: 'success', hooks, next_cursor };
  },
});

/** DELETE /v1/hooks?id=…: unsubscribe. */
export const deleteHookRoute = defineRoute({
  method: 'delete',
  path: '/v1/hooks',
  tag: TAG,
  summary: 'Delete a REST hook',
  description: 'Events not yet delivered to it are dropped.',
  auth: 'apiKey',
  query: z.strictObject({ id: z.guid({ error: (i) => (i.input === undefined ? 'required' : 'must be a UUID') }).describe('Hook id') }),
  example: { query: { id: '3f2b8c4e-9a61-4d2f-b7e3-5c1a0d9e8f47' } },
  responses: {
    200: { description: 'Deleted', schema: z.object({ status: z.literal('success'), id: z.guid(), message: z.string() }) },
    400: { description: 'Missing or malformed id' },
    404: { description: HOOK_NOT_FOUND },
  },
  async handler(input) {
    const deleted = await deleteJourneyHooks(input.deps.db, workspaceOf(input), { id: input.query.id });
    if (!deleted.length) throw notFound(HOOK_NOT_FOUND);
    return { status: 'success', id: input.query.id, message: 'Hook deleted' };
  },
});
