// The call paths scripts/record-call-fixtures.ts records: each drives one real outboundCall (or deliverCallEvent, or
// reclaimUnstartedCalls) run on the test stack through the carrier simulator's last-four-digit rules, and names the run
// whose history becomes test/fixtures/call-history-<name>.json.
import type { temporal } from '@temporalio/proto';
import { randomUUID } from 'node:crypto';
import { callEventId } from '../src/calls/events';
import { createAgent, createPhoneGroup } from '../src/agents/db/agents';
import { admitApiCall } from '../src/calls/admission';
import { releaseCallSlot } from '../src/calls/db/call-slots';
import { startOutboundCall } from '../src/calls/start';
import { callEventWorkflowId, callWorkflowId } from '../src/temporal/ids';
import { taskQueue } from '../src/temporal/task-queues';
import { reclaimUnstartedCalls } from '../workflows/calls/reclaim';
import { CALL_RECHECK_SIGNAL, type CallResult } from '../workflows/calls/outbound-call-types';
import { callingWorkspace, phoneEnding } from '../test/helpers/calls';
import type { TestApp } from '../test/helpers/stack';
import { eventually, type WebhookReceiver } from '../test/helpers/webhook-receiver';

/** The run to save: its workflow id and run id. */
export interface RecordedCallRun {
  workflowId: string;
  runId: string;
}

/** The stack a path runs on, a calling workspace subscribed to the receiver's URL, and the receiver. */
export interface CallPathContext {
  app: TestApp;
  receiver: WebhookReceiver;
  hooks: string;
  caller: Awaited<ReturnType<typeof callingWorkspace>>;
}

const handleOf = (ctx: CallPathContext, callId: string) => ctx.app.temporal.client.workflow.getHandle(callWorkflowId(callId));

/** Places a call through POST /v1/agent and waits for its result, which must be the expected outcome. */
async function apiCall(ctx: CallPathContext, last4: string, expected: CallResult['outcome']): Promise<RecordedCallRun> {
  const res = await ctx.app.request('POST', '/v1/agent', {
    key: ctx.caller.apiKey,
    body: { agent: ctx.caller.agentId, phone: phoneEnding(last4), request_data: { ref: 1 } },
  });
  if (res.status !== 200) throw new Error(`POST /v1/agent: ${res.status} ${JSON.stringify(res.body)}`);
  const handle = handleOf(ctx, res.body.call_id as string);
  const r = (await handle.result()) as CallResult;
  if (r.outcome !== expected) throw new Error(`call to …${last4} ended ${r.outcome}, expected ${expected}`);
  return { workflowId: handle.workflowId, runId: (await handle.describe()).runId };
}

/** Every path, by fixture name. */
export const callPaths: Record<string, (ctx: CallPathContext) => Promise<RecordedCallRun>> = {
  /** 0005: answered, one transfer leg answered; call.started and call.completed published. */
  transfer: (ctx) => apiCall(ctx, '0005', 'transferred'),
  /** 0006: answered, a failed leg then an answered one. */
  'two-legs': (ctx) => apiCall(ctx, '0006', 'transferred'),
  /** 0004: busy. */
  busy: (ctx) => apiCall(ctx, '0004', 'busy'),
  /** 0003: nobody answers. */
  'no-answer': (ctx) => apiCall(ctx, '0003', 'no_answer'),
  /** 0007: the provider goes silent; the call fails with provider_timeout after the configured timeout (read first). */
  'provider-timeout': (ctx) => apiCall(ctx, '0007', 'failed'),

  /**
   * 0005 asked to recheck the provider once placed (as the api does after a restart): it reads the call and its child
   * calls, applies them, and follows the callbacks to the end (after the call-provider-truth patch only).
   */
  async recheck(ctx) {
    const res = await ctx.app.request('POST', '/v1/agent', { key: ctx.caller.apiKey, body: { agent: ctx.caller.agentId, phone: phoneEnding('0005') } });
    if (res.status !== 200) throw new Error(`POST /v1/agent: ${res.status} ${JSON.stringify(res.body)}`);
    const callId = res.body.call_id as string;
    const handle = handleOf(ctx, callId);
    await eventually(
      async () => (await ctx.app.db.one<{ provider_sid: string | null }>('SELECT provider_sid FROM calls WHERE id = $1', [callId]))?.provider_sid ?? undefined,
      20_000,
      'the call placed',
    );
    await handle.signal(CALL_RECHECK_SIGNAL);
    const r = (await handle.result()) as CallResult;
    if (r.outcome !== 'transferred') throw new Error(`rechecked call ended ${r.outcome}`);
    return { workflowId: handle.workflowId, runId: (await handle.describe()).runId };
  },

  /** 0007 cancelled through POST /v1/calls/cancel once placed: hung up at the provider, outcome canceled. */
  async cancel(ctx) {
    const res = await ctx.app.request('POST', '/v1/agent', { key: ctx.caller.apiKey, body: { agent: ctx.caller.agentId, phone: phoneEnding('0007') } });
    if (res.status !== 200) throw new Error(`POST /v1/agent: ${res.status} ${JSON.stringify(res.body)}`);
    const callId = res.body.call_id as string;
    await eventually(async () => ctx.app.simulator!.ledger.entries.some((e) => e.callId === callId), 20_000, 'the call to be placed');
    const canceled = await ctx.app.request('POST', '/v1/calls/cancel', { key: ctx.caller.apiKey, body: { call_id: callId } });
    if (canceled.status !== 200) throw new Error(`cancel: ${canceled.status} ${JSON.stringify(canceled.body)}`);
    const handle = handleOf(ctx, callId);
    const r = (await handle.result()) as CallResult;
    if (r.outcome !== 'canceled') throw new Error(`cancelled call ended ${r.outcome}`);
    return { workflowId: handle.workflowId, runId: (await handle.describe()).runId };
  },

  /**
   * A journey-style call (waitForSlot) while the workspace's only slot is held: it waits, and is placed once the slot
   * is freed (0001, answered).
   */
  async 'slot-wait'(ctx) {
    const { app } = ctx;
    const ws = await app.newWorkspace();
    await app.db.query('UPDATE workspaces SET max_concurrent_calls = 1 WHERE id = $1', [ws.workspaceId]);
    const group = await createPhoneGroup(app.db, ws.workspaceId, { name: 'outbound', numbers: ['12125559100'] });
    const agent = await createAgent(app.db, ws.workspaceId, { name: 'Slot agent', phoneGroupId: group.id });
    // The workspace's one slot held by a call that is not running (freed below as its end would free it).
    const holder = randomUUID();
    await app.db.query("INSERT INTO calls (id, workspace_id, phone_to, phone_from, slot_taken_at) VALUES ($1, $2, '12125550000', '12125559100', now())", [
      holder,
      ws.workspaceId,
    ]);
    await app.db.query('INSERT INTO call_slot_counts (workspace_id, used) VALUES ($1, 1)', [ws.workspaceId]);
    const callId = randomUUID();
    await startOutboundCall(app.temporal.client, app.config.TEMPORAL_TASK_QUEUE_PREFIX, {
      callId,
      workspaceId: ws.workspaceId,
      agentId: agent.id,
      to: phoneEnding('0001'),
      window: { start: '00:00', end: '23:59' },
      waitForSlot: true,
      source: 'journey',
    });
    const handle = handleOf(ctx, callId);
    // Waiting: a poll's timer (runs before the call-slot-wakeup patch) or the waiting activity (after it).
    const waiting = (e: temporal.api.history.v1.IHistoryEvent) =>
      !!e.timerStartedEventAttributes || e.activityTaskScheduledEventAttributes?.activityType?.name === 'waitForCallSlot';
    await eventually(async () => (await handle.fetchHistory()).events!.some(waiting), 30_000, 'the slot wait');
    await releaseCallSlot(app.db, holder);
    const r = (await handle.result()) as CallResult;
    if (r.outcome !== 'human') throw new Error(`slot-wait call ended ${r.outcome}`);
    return { workflowId: handle.workflowId, runId: (await handle.describe()).runId };
  },

  /**
   * reclaimUnstartedCalls for one workspace: an api call admitted holding a slot whose workflow never started (the api
   * died in between), 11 minutes old, deleted and its slot freed.
   */
  async reclaim(ctx) {
    const { app } = ctx;
    const ws = await callingWorkspace(app);
    const callId = randomUUID();
    const got = await admitApiCall(app.db, ws.workspaceId, { id: callId, agentId: ws.agentId, phone: phoneEnding('0001') });
    if (!got.ok) throw new Error(`admission refused the orphan: ${got.code}`);
    await app.db.query("UPDATE calls SET created_at = now() - interval '11 minutes' WHERE id = $1", [callId]);
    const handle = await app.temporal.client.workflow.start(reclaimUnstartedCalls, {
      workflowId: `call-reclaim-recorder-${ws.workspaceId}`,
      taskQueue: taskQueue('calls', app.config.TEMPORAL_TASK_QUEUE_PREFIX),
      args: [{ workspaceId: ws.workspaceId }],
    });
    const r = await handle.result();
    if (r.reclaimed !== 1 || r.checked !== 1) throw new Error(`reclaim came to ${JSON.stringify(r)}`);
    if (await app.db.one('SELECT 1 FROM calls WHERE id = $1', [callId])) throw new Error('the orphan call is still there');
    return { workflowId: handle.workflowId, runId: handle.firstExecutionRunId };
  },

  /** deliverCallEvent of a call.completed to the workspace's subscriber (the receiver), delivered. */
  async 'event-delivered'(ctx) {
    const run = await apiCall(ctx, '0001', 'human');
    const callId = run.workflowId.slice('call:'.length);
    const handle = ctx.app.temporal.client.workflow.getHandle(callEventWorkflowId(callEventId(callId, 'call.completed')));
    const r = (await handle.result()) as { delivered: number };
    if (r.delivered !== 1) throw new Error(`call.completed delivered to ${r.delivered} subscribers`);
    return { workflowId: handle.workflowId, runId: (await handle.describe()).runId };
  },
};
