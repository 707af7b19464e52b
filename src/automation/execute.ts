import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import type { Db } from '../db/pool';
import { settleAutomationRun } from './db/automation-runs';
import { DomainError } from '../core/errors';
import { ActionInputError } from '../integrations/define';
import { prepareInput, resolveAction } from '../integrations/run';
import { automationWorkflowId } from '../temporal/ids';
import { runSearchAttributes } from '../temporal/search-attributes';
import { taskQueue } from '../temporal/task-queues';
import { startWorkflow, WORKFLOW } from '../temporal/workflow-types';
import { engineUnreachable } from '../temporal/unreachable';
import { outcomeEnvelope, type AutomationEnvelope } from './envelope';
import { automationOutcomes } from './outcome-hub';
import { redact, redactMessage } from './redact';
import { AUTOMATION_RUN_ATTEMPTS, type AutomationAuth, type AutomationOutcome, type AutomationRunInput } from './types';

/**
 * How long a synchronous request whose run started eagerly on this process's worker waits for the outcome handed over
 * in-process before it also polls Temporal for the run's result (one long poll fewer per request when, as usual, the
 * outcome comes first: `npm run bench -- automation`).
 */
const RESULT_POLL_AFTER_EAGER_MS = 1000;

/** The spec's 4.6 request body (validated). */
export interface ExecuteRequest {
  automationType: string;
  nodeId?: string;
  userId?: string;
  nodeParams: { action?: string; version?: number; params: Record<string, unknown> };
  transcript?: unknown;
  context?: unknown;
  callData?: Record<string, unknown>;
  async?: boolean;
  callbackUrl?: string;
}

/** Refuses a JWT user another user's userId or an integration they are not allowed (403). */
export function authorize(auth: AutomationAuth, body: ExecuteRequest): void {
  if (auth.superuser) return;
  if (body.userId !== undefined && body.userId !== auth.userId)
    throw new DomainError('automation_not_allowed', 'Forbidden: userId must be your own user (or use a superuser key)');
  if (auth.allowedIntegrations && !auth.allowedIntegrations.includes(body.automationType)) {
    throw new DomainError('automation_not_allowed', `Forbidden: you are not allowed to run ${body.automationType} automations`);
  }
}

/**
 * Runs one automation request: checks the action and its params (failures answer success:false without a run),
 * records the run, and executes the automationRun workflow, waiting for it (sync) or not (async with a callback).
 */
export async function executeAutomation(
  deps: { db: Db; client: Client; taskQueuePrefix: string; eagerClient?: Client },
  auth: AutomationAuth,
  body: ExecuteRequest,
  receivedAt: number,
): Promise<AutomationEnvelope> {
  authorize(auth, body);
  const requestId = randomUUID();
  const userId = auth.superuser ? null : auth.userId;
  const nodeId = body.nodeId ?? null;
  const call = { callData: body.callData, transcript: body.transcript, context: body.context };
  const base = { requestId, nodeId, automationType: body.automationType, superuser: auth.superuser, receivedAt };
  const row = {
    id: requestId,
    workspaceId: auth.workspaceId,
    userId,
    automationType: body.automationType,
    nodeId,
    superuser: auth.superuser,
    async: !!body.async,
  };
  const request = redact({ nodeParams: body.nodeParams, callData: body.callData, async: !!body.async });

  let action: string;
  try {
    const resolved = resolveAction(body.automationType, body.nodeParams.action, body.nodeParams.version);
    action = resolved.action.key;
    prepareInput(resolved.action, body.nodeParams.params, body.callData);
  } catch (err) {
    if (!(err instanceof ActionInputError)) throw err;
    const outcome: AutomationOutcome = { success: false, data: null, error: err.message, errorType: err.type, attempts: 0, runAttempts: 0 };
    await settleAutomationRun(
      deps.db,
      { ...row, action: body.nodeParams.action ?? '', request, workflowId: null },
      { success: false, error: redactMessage(err.message), errorType: err.type, data: null, attempts: 0, runAttempts: 0, durationMs: Date.now() - receivedAt },
    );
    return outcomeEnvelope({ ...base, action: body.nodeParams.action ?? '', workflowId: null }, outcome, { problems: err.problems });
  }

  // The run's activity records it (beginAutomationAttempt): no database round trip here before the start.
  const workflowId = automationWorkflowId(requestId);
  const input: AutomationRunInput = {
    requestId,
    workspaceId: auth.workspaceId,
    userId,
    superuser: auth.superuser,
    automationType: body.automationType,
    action,
    ...(body.nodeParams.version !== undefined ? { version: body.nodeParams.version } : {}),
    nodeId,
    params: body.nodeParams.params,
    call,
    ...(body.async ? { callbackUrl: body.callbackUrl } : {}),
    maxRunAttempts: AUTOMATION_RUN_ATTEMPTS,
    receivedAt,
  };
  const options = {
    workflowId,
    taskQueue: taskQueue('automations', deps.taskQueuePrefix),
    args: [input] as [AutomationRunInput],
    // Started on this process's own worker when there is one: the run's first task needs no trip through the server.
    ...(deps.eagerClient ? { requestEagerStart: true } : {}),
    typedSearchAttributes: runSearchAttributes.automationRun({ workspaceId: auth.workspaceId, automationType: body.automationType }),
  };
  // Only a workflow engine that cannot be reached is a 503 (retry later); any other failure is thrown as it is (a 500).
  const engineDown = (err: unknown) => {
    if (!engineUnreachable(err)) throw err;
    throw Object.assign(new DomainError('workflow_unavailable', 'Could not run the automation (workflow engine unavailable), please retry'), { cause: err });
  };
  const client = deps.eagerClient ?? deps.client;
  if (body.async) {
    await startWorkflow(client, WORKFLOW.automationRun, options).catch(engineDown);
    return {
      ...outcomeEnvelope(
        { ...base, action, workflowId },
        { success: true, data: null, error: null, errorType: null, attempts: 0, runAttempts: 0 },
        { async: true },
      ),
    };
  }
  // A run whose activity runs in this process (the in-process worker) hands its outcome over once it is recorded in
  // Postgres, final: a try after a crash returns it, so the workflow ends with it even if this process dies now.
  const early = automationOutcomes.wait(requestId);
  // Answered early, the request stops polling for the workflow's result (or never starts to).
  const polling = new AbortController();
  try {
    const started = await startWorkflow(client, WORKFLOW.automationRun, options).catch(engineDown);
    // Awaited on the api's own connection: the in-process worker's may close (the worker stops) while the run ends.
    const run = deps.client.workflow.getHandle<(i: AutomationRunInput) => Promise<AutomationOutcome>>(workflowId, undefined, {
      firstExecutionRunId: started.firstExecutionRunId,
    });
    // A run started eagerly has its first task, and so its activity, on this process's worker, which hands the outcome
    // over: its result is asked of Temporal only if that has not come within RESULT_POLL_AFTER_EAGER_MS (its task
    // moved to another worker). Any other run's result is polled at once.
    const waited = started.eagerlyStarted ? sleep(RESULT_POLL_AFTER_EAGER_MS, undefined, { signal: polling.signal }) : Promise.resolve();
    const result = waited.then(() => deps.client.withAbortSignal(polling.signal, () => run.result())).catch(engineDown);
    const outcome = await Promise.race([early.outcome, result]);
    return outcomeEnvelope({ ...base, action, workflowId }, outcome);
  } finally {
    early.cancel();
    polling.abort();
  }
}
