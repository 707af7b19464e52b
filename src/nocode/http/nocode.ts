import { z } from 'zod';
import { verifyLogin } from '../../auth/password-login';
import { deleteJourneyHooks } from '../../journeys/db/journey-hooks';
import { agentOptions, journeyOptions, workspaceOptions } from '../db/nocode-options';
import { notFound, unauthorized } from '../../http/api-error';
import { triggerSteps } from '../../journeys/hooks';
import { defineRoute, type Route, type RouteInput } from '../../http/route';
import { credentials, JourneyIdField, subscribeShape, TRIGGER_DELIVERY, Unsubscribed, WebhookUrlField } from '../../journeys/http/hook-schemas';
import { HOOK_NOT_FOUND, subscribe, SUBSCRIBE_EXAMPLE, SUBSCRIBE_RESPONSES } from '../../journeys/http/hooks';

const TAG = 'No-code platforms';
const BASE = '/api/make-com/automation';
const AUTH =
  "Auth: `Authorization: Bearer <API key or user JWT>` (preferred), or the live platform's `{user, password}` in the body (a user as for " +
  'POST /api/auth/login, limited like login).';

type Credentials = { user?: string; password?: string };

/** The workspace a no-code request speaks for: its Bearer token's, else its body credentials' (401 without either). */
async function callerWorkspace(input: RouteInput<unknown, Credentials>): Promise<string> {
  const byHeader = input.ctx.state.nocode;
  if (byHeader) return byHeader.workspaceId;
  const { user, password } = input.body ?? {};
  if (!user || !password) throw unauthorized('Unauthorized: send Authorization: Bearer <API key or user JWT>, or user and password in the body');
  return (await verifyLogin(input.deps, input.ctx.ip, user, password)).workspaceId;
}

/** The caller's workspace, checked against a workspace_id the body names (another workspace is not found). */
async function scopedWorkspace(input: RouteInput<unknown, Credentials & { workspace_id?: string }>): Promise<string> {
  const ws = await callerWorkspace(input);
  const asked = input.body?.workspace_id;
  if (asked !== undefined && asked.toLowerCase() !== ws) throw notFound('Workspace not found');
  return ws;
}

const Items = z.object({ items: z.array(z.object({ label: z.string(), value: z.string() })).describe('Dropdown entries') });
const WorkspaceIdField = z.guid({ error: 'must be a UUID' }).optional().describe("The workspace (from the workspaces list); default the caller's");
const example = { body: { user: 'ops@example.com', password: 'correct horse battery staple' } };

function optionRoute<B extends Credentials>(
  kind: string,
  summary: string,
  body: z.ZodType<B>,
  list: (input: RouteInput<unknown, B>) => Promise<{ label: string; value: string }[]>,
  extra: Record<number, { description: string }> = {},
  ex: Record<string, unknown> = {},
): Route<undefined, B> {
  return defineRoute<undefined, B>({
    method: 'post',
    path: `${BASE}/options/${kind}`,
    tag: TAG,
    summary,
    description: `Entries {label, value} for a no-code platform's dropdown. ${AUTH}`,
    auth: 'nocode',
    body,
    // With a Bearer token and nothing to name (no journey_id), a client may send no body at all.
    bodyOptional: kind !== 'nodes',
    example: { body: { ...example.body, ...ex } },
    responses: { 200: { description: 'The entries', schema: Items }, ...extra },
    handler: async (input) => ({ items: await list(input) }),
  });
}

/** POST …/options/workspaces: the caller's workspace. */
const workspaceOptionsRoute = optionRoute('workspaces', 'Option list: workspaces', z.strictObject(credentials), async (input) =>
  workspaceOptions(input.deps.db, await callerWorkspace(input)),
);

/** POST …/options/journeys: the workspace's journeys. */
const journeyOptionsRoute = optionRoute(
  'journeys',
  'Option list: journeys',
  z.strictObject({ ...credentials, workspace_id: WorkspaceIdField }),
  async (input) => journeyOptions(input.deps.db, await scopedWorkspace(input)),
  { 404: { description: "workspace_id is not the caller's workspace" } },
);

/** POST …/options/nodes: a journey's trigger steps (the points outside platforms can subscribe to). */
const nodeOptionsRoute = optionRoute(
  'nodes',
  "Option list: a journey's trigger steps",
  z.strictObject({ ...credentials, journey_id: JourneyIdField }),
  async (input) =>
    (await triggerSteps(input.deps.db, await callerWorkspace(input), input.body.journey_id)).triggers.map((t) => ({ label: t.name ?? t.id, value: t.id })),
  { 404: { description: "No such journey in the caller's workspace (Workflow not found)" } },
  { journey_id: '3f2b8c4e-9a61-4d2f-b7e3-5c1a0d9e8f47' },
);

/** POST …/options/agents: the workspace's agents. */
const agentOptionsRoute = optionRoute(
  'agents',
  'Option list: agents',
  z.strictObject({ ...credentials, workspace_id: WorkspaceIdField }),
  async (input) => agentOptions(input.deps.db, await scopedWorkspace(input)),
  { 404: { description: "workspace_id is not the caller's workspace" } },
);

/** POST …/subscribe: a REST hook on a journey's trigger step. */
const nocodeSubscribeRoute = defineRoute({
  method: 'post',
  path: `${BASE}/subscribe`,
  tag: TAG,
  summary: 'Subscribe a URL to a journey trigger step (REST hook)',
  description: `As POST /v1/hooks. Subscribing the same step and URL again answers the same hook_id. ${TRIGGER_DELIVERY} ${AUTH}`,
  auth: 'nocode',
  body: z.strictObject({ ...subscribeShape, ...credentials }),
  example: { body: SUBSCRIBE_EXAMPLE },
  responses: SUBSCRIBE_RESPONSES,
  handler: async (input) => subscribe(input.deps, await callerWorkspace(input), input.body),
});

/** The URL as subscribe stored it (the parsed form), so `https://x.example` finds `https://x.example/`. */
function normalUrl(raw: string): string {
  try {
    return new URL(raw).href;
  } catch {
    return raw;
  }
}

const HookIdField = z.guid({ error: (i) => (i.input === undefined ? 'required' : 'must be a UUID') }).describe('The hook_id subscribe answered');

/** DELETE …/unsubscribe: by webhook_url (every hook of the workspace with that URL) or by hook_id. */
const nocodeUnsubscribeRoute = defineRoute({
  method: 'delete',
  path: `${BASE}/unsubscribe`,
  tag: TAG,
  summary: 'Unsubscribe a REST hook',
  description: `A JSON body with webhook_url (every hook of the workspace with that URL) or hook_id. ${AUTH}`,
  auth: 'nocode',
  body: z.union([z.strictObject({ webhook_url: WebhookUrlField, ...credentials }), z.strictObject({ hook_id: HookIdField, ...credentials })], {
    error: 'send webhook_url or hook_id (one of them)',
  }),
  example: { body: { webhook_url: 'https://hooks.example.com/journey' } },
  responses: {
    200: { description: 'Deleted', schema: Unsubscribed },
    400: { description: 'Neither (or both) of webhook_url and hook_id' },
    404: { description: HOOK_NOT_FOUND },
  },
  async handler(input) {
    const ws = await callerWorkspace(input);
    const b = input.body;
    const ids = await deleteJourneyHooks(input.deps.db, ws, 'hook_id' in b ? { id: b.hook_id } : { url: normalUrl(b.webhook_url) });
    if (!ids.length) throw notFound(HOOK_NOT_FOUND);
    return { status: 'success', hook_ids: ids, message: ids.length === 1 ? 'Hook deleted' : `${ids.length} hooks deleted` };
  },
});

/** The no-code routes, in document order. */
export const nocodeRoutes = [workspaceOptionsRoute, journeyOptionsRoute, nodeOptionsRoute, agentOptionsRoute, nocodeSubscribeRoute, nocodeUnsubscribeRoute];
