import { z } from 'zod';
import { executeAutomation, type ExecuteRequest } from '../execute';
import type { AutomationAuth } from '../types';
import { findAutomationRun, type AutomationRunRow } from '../db/automation-runs';
import { notFound, unauthorized } from '../../http/api-error';
import { isUuid } from '../../core/ids';
import { catalogueEntries } from '../../integrations/registry';
import { defineRoute, type RouteInput } from '../../http/route';
import { nameRun } from '../../http/run-link';
import type { AppState } from '../../http/state';
import { Catalogue, Envelope, ExecuteBody, StoredRun } from './automation-schemas';

const TAG = 'Automations';

/** The caller of an automation route (set by the automation auth middleware). */
function automationAuthOf(input: { ctx: { state: AppState } }): AutomationAuth {
  const auth = input.ctx.state.automation;
  if (!auth) throw unauthorized();
  return auth;
}

/** POST /api/automation/execute: run one action of one integration (spec 4.6). */
const executeRoute = defineRoute({
  method: 'post',
  path: '/api/automation/execute',
  tag: TAG,
  summary: 'Run an automation action',
  description:
    'Runs nodeParams.action of automationType with the call context, as a durable run (workflow automation:<requestId>). ' +
    'An action that fails answers 200 with success false, error and metadata.errorType; a malformed request is 400 with the same envelope. ' +
    'With async true the answer comes at once ({requestId, success:true, metadata:{async:true}}) and the envelope is POSTed to callbackUrl, ' +
    "signed like journey webhooks (Switchboard-Signature) and retried with backoff. Auth: a user JWT (the user's own connection) or x-key with the workspace's API key (superuser mode: the workspace's connection).",
  auth: 'automation',
  idempotent: true,
  body: ExecuteBody,
  failure: Envelope,
  example: {
    body: { automationType: 'slack', nodeId: 'node-1', nodeParams: { action: 'post_message', params: { channel: 'C0123456', text: 'Call finished' } } },
  },
  responses: { 200: { description: 'The run ended (success true or false), or started (async)', schema: Envelope } },
  namesRun: { when: 'when a run started (not for an action or params refused before it: metadata.workflowId null)' },
  handler: async (input: RouteInput<unknown, z.infer<typeof ExecuteBody>>) => {
    const { db, temporal, config } = input.deps;
    const receivedAt = (input.ctx.state as { receivedAt?: number }).receivedAt ?? Date.now();
    const eager = input.deps.eagerClient;
    const eagerClient = typeof eager === 'function' ? eager() : eager;
    const deps = { db, client: temporal.client, eagerClient, taskQueuePrefix: config.TEMPORAL_TASK_QUEUE_PREFIX };
    const envelope = await executeAutomation(deps, automationAuthOf(input), input.body as ExecuteRequest, receivedAt);
    const { workflowId } = envelope.metadata;
    if (typeof workflowId === 'string') nameRun(input.ctx, config, workflowId);
    return envelope;
  },
});

/** GET /api/automation/integrations: the catalogue with each action's JSON Schema. */
const integrationsRoute = defineRoute({
  method: 'get',
  path: '/api/automation/integrations',
  tag: TAG,
  summary: 'List integrations and their actions',
  description: "Every integration (automationType) with its auth kinds and actions; each action's input is the JSON Schema of nodeParams.params.",
  auth: 'automation',
  failure: Envelope,
  responses: { 200: { description: 'The catalogue', schema: Catalogue } },
  handler: async (input) => {
    automationAuthOf(input);
    return { integrations: catalogueEntries() };
  },
});

function presentRun(r: AutomationRunRow): z.infer<typeof StoredRun> {
  return {
    requestId: r.id,
    automationType: r.automation_type,
    action: r.action,
    nodeId: r.node_id,
    status: r.status,
    success: r.success,
    error: r.error,
    errorType: r.error_type,
    data: r.data,
    request: r.request,
    attempts: r.attempts,
    runAttempts: r.run_attempts,
    superuser: r.superuser,
    async: r.async,
    workflowId: r.workflow_id,
    duration: r.duration_ms,
    createdAt: r.created_at.toISOString(),
    finishedAt: r.finished_at?.toISOString() ?? null,
  };
}

/** GET /api/automation/runs/{requestId}: a stored run of the caller's workspace (a JWT user: their own runs). */
const runRoute = defineRoute({
  method: 'get',
  path: '/api/automation/runs/:requestId',
  tag: TAG,
  summary: 'Get an automation run',
  description: "The stored (redacted) run. Another workspace's run, or for a JWT user another user's, is not found.",
  auth: 'automation',
  failure: Envelope,
  example: { params: { requestId: '6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f' } },
  responses: { 200: { description: 'The run', schema: StoredRun }, 404: { description: 'No such run here' } },
  handler: async (input) => {
    const auth = automationAuthOf(input);
    const id = input.params.requestId ?? '';
    const run = isUuid(id) ? await findAutomationRun(input.deps.db, auth.workspaceId, id) : undefined;
    if (!run || (!auth.superuser && run.user_id !== auth.userId)) throw notFound('Automation run not found');
    return presentRun(run);
  },
});

/** The automation routes, in document order. */
export const automationRoutes = [executeRoute, integrationsRoute, runRoute];
