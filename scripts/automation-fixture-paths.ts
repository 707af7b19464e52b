// The automationRun paths the fixture recorder runs: each through the api (superuser mode) against a fake vendor.
import type { TestApp } from '../test/helpers/stack';
import type { VendorFake } from '../test/helpers/vendor-fake';
import { eventually, type WebhookReceiver } from '../test/helpers/webhook-receiver';

/** The stack a path runs on: the api with workers, a fake vendor, a callback receiver and a superuser key. */
export interface AutomationPathContext {
  app: TestApp;
  fake: VendorFake;
  receiver: WebhookReceiver;
  hooks: string;
  superuserKey: string;
}

/** The workflow id of the run a path made. */
export type AutomationPath = (ctx: AutomationPathContext) => Promise<string>;

const execute = async (ctx: AutomationPathContext, route: string, extra: Record<string, unknown> = {}) => {
  const body = {
    automationType: 'proxy',
    nodeId: 'node-1',
    nodeParams: { params: { apiMethod: 'POST', apiURL: `${ctx.fake.url}${route}`, requestBodyJson: { n: 1 } } },
    ...extra,
  };
  const res = await ctx.app.request('POST', '/api/automation/execute', { body, headers: { 'x-key': ctx.superuserKey } });
  if (res.status !== 200) throw new Error(`execute: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { requestId: string; success: boolean; metadata: { workflowId?: string; runAttempts?: number } };
};

const ended = async (ctx: AutomationPathContext, workflowId: string) => {
  await ctx.app.temporal.client.workflow.getHandle(workflowId).result();
  return workflowId;
};

/** Every path, by name (the fixture is test/fixtures/automation-history-<name>[-<tag>].json). */
export const automationPaths: Record<string, AutomationPath> = {
  // The vendor answers at once: one local activity, Outcome succeeded.
  success: async (ctx) => {
    ctx.fake.on('POST', '/fixture-ok', { status: 201, body: { id: 'x1' } });
    const res = await execute(ctx, '/fixture-ok');
    if (!res.success) throw new Error('success: the run failed');
    return ended(ctx, res.metadata.workflowId!);
  },
  // The vendor refuses (4xx): the action fails without a retry, Outcome failed.
  'action-failure': async (ctx) => {
    ctx.fake.on('POST', '/fixture-rejects', { status: 422, body: { message: 'not allowed' } });
    const res = await execute(ctx, '/fixture-rejects');
    if (res.success) throw new Error('action-failure: the run succeeded');
    return ended(ctx, res.metadata.workflowId!);
  },
  // Every try of the first attempt answers 503 (the shared client gives up), the run's second attempt succeeds.
  'retried-then-succeeded': async (ctx) => {
    const down = { status: 503, headers: { 'retry-after': '0' }, body: 'down' };
    ctx.fake.on('POST', '/fixture-flaky', down, down, down, { status: 200, body: { fine: true } });
    const res = await execute(ctx, '/fixture-flaky');
    if (!res.success || res.metadata.runAttempts !== 2) throw new Error(`retried-then-succeeded: ${JSON.stringify(res)}`);
    return ended(ctx, res.metadata.workflowId!);
  },
  // async with a callback: the envelope is delivered by an ordinary activity, its first delivery refused (500).
  'async-callback': async (ctx) => {
    ctx.fake.on('POST', '/fixture-async', { status: 200, body: { done: true } });
    ctx.receiver.script('/fixture-cb', [500, 200]);
    const res = await execute(ctx, '/fixture-async', { async: true, callbackUrl: `${ctx.hooks}/fixture-cb` });
    await eventually(async () => ctx.receiver.on('/fixture-cb').find((d) => d.status === 200), 60_000, 'the callback');
    return ended(ctx, `automation:${res.requestId}`);
  },
};
