// What the journey fixture paths share: the recording context, a tenant with its journey, and waits on a run.
import { importSteps, newPhone, rowsWhen, runOf } from '../test/helpers/journeys';
import type { TestApp } from '../test/helpers/stack';
import { eventually, type WebhookReceiver } from '../test/helpers/webhook-receiver';

/** The run to save: its workflow id and run id. */
export interface RecordedRun {
  workflowId: string;
  runId: string;
}

/** The stack a path runs on and the webhook receiver its webhook steps call. */
export interface PathContext {
  app: TestApp;
  receiver: WebhookReceiver;
  hooks: string;
}

/**
 * A new workspace (or the one given, which needs a superuser key) with the journey; enroll() puts a new lead in it
 * and unenroll() takes one out, through the api.
 */
export async function tenant(ctx: PathContext, steps: unknown[], workspace?: Awaited<ReturnType<PathContext['app']['newWorkspace']>>) {
  const ws = workspace ?? (await ctx.app.newWorkspace({ superuser: true }));
  // Reading the workspace's webhook secret takes a superuser key.
  const secret = await ctx.app.request('GET', '/v1/journeys/webhook-secret', { key: ws.superuserKey });
  if (secret.status !== 200) throw new Error(`webhook secret: ${secret.status} ${JSON.stringify(secret.body)}`);
  ctx.receiver.secret = secret.body.webhook_secret;
  const journey = await importSteps(ctx.app, ws.workspaceId, steps);
  const enroll = async (record: Record<string, unknown> = {}) => {
    const res = await ctx.app.request('POST', '/v1/lead/sendtoworkflow', {
      key: ws.apiKey,
      body: { workflow_id: journey.id, record: { phone: newPhone(), ...record } },
    });
    if (res.status !== 200) throw new Error(`enrollment failed: ${res.status} ${JSON.stringify(res.body)}`);
    const leadId = res.body.lead_id as string;
    return { leadId, handle: runOf(ctx.app, journey.id, leadId) };
  };
  const unenroll = (leadId: string, reason?: string) =>
    ctx.app.request('POST', '/v1/lead/unenroll', { key: ws.apiKey, body: { workflow_id: journey.id, lead_id: leadId, ...(reason ? { reason } : {}) } });
  return { ...ws, journeyId: journey.id, version: journey.version, enroll, unenroll };
}

/** Waits until the lead's latest enrollment row is at the step. */
export const atStep = (ctx: PathContext, leadId: string, step: string) =>
  rowsWhen(ctx.app, leadId, (rows) => rows.at(-1)?.current_step === step, `the run at ${step}`);

/** The events of the workflow's latest run. */
export const eventsOf = async (ctx: PathContext, workflowId: string) => (await ctx.app.temporal.client.workflow.getHandle(workflowId).fetchHistory()).events!;

/** Waits until the run has started a timer (asleep in Temporal's eyes too). */
export const timerStarted = (ctx: PathContext, workflowId: string) =>
  eventually(async () => (await eventsOf(ctx, workflowId)).some((e) => e.timerStartedEventAttributes), 30_000, 'the timer');

/** The handle's current run, to record. */
export const runIdOf = async (handle: { workflowId: string; describe(): Promise<{ runId: string }> }): Promise<RecordedRun> => ({
  workflowId: handle.workflowId,
  runId: (await handle.describe()).runId,
});
