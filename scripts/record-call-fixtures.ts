// Records replay fixtures of the call workflows: runs each call path (scripts/call-fixture-paths.ts) on the test stack
// (a private Postgres and a Temporal dev server, as `npm test` starts them, and the carrier simulator) and saves each
// run's history as test/fixtures/call-history-<path>[-<tag>].json. It never replaces a file: old histories must keep
// replaying, so a new recording gets a new name (--tag).
//
//   node bin/run-ts.js scripts/record-call-fixtures.ts [--tag v2] [--only transfer,busy]
import { temporal } from '@temporalio/proto';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { callingWorkspace } from '../test/helpers/calls';
import { repoRoot } from '../test/helpers/env';
import globalSetup from '../test/helpers/global-setup';
import globalTeardown from '../test/helpers/global-teardown';
import { startTestApp } from '../test/helpers/stack';
import { WebhookReceiver } from '../test/helpers/webhook-receiver';
import { callPaths, type CallPathContext, type RecordedCallRun } from './call-fixture-paths';

const { values } = parseArgs({ options: { tag: { type: 'string' }, only: { type: 'string' } } });
const names = values.only ? values.only.split(',').map((s) => s.trim()) : Object.keys(callPaths);
const unknown = names.filter((n) => !(n in callPaths));
if (unknown.length) fail(`unknown path(s) ${unknown.join(', ')}; known: ${Object.keys(callPaths).join(', ')}`);
if (values.tag !== undefined && !/^[a-z0-9][a-z0-9-]*$/.test(values.tag)) fail('--tag takes lowercase letters, digits and dashes');

const fileOf = (name: string) => path.join(repoRoot, 'test', 'fixtures', `call-history-${name}${values.tag ? `-${values.tag}` : ''}.json`);
const taken = names.filter((n) => existsSync(fileOf(n)));
if (taken.length) {
  fail(
    `refusing to overwrite ${taken.map((n) => path.relative(repoRoot, fileOf(n))).join(', ')}: recorded histories must keep replaying. ` +
      'Record under a new name with --tag (e.g. --tag v2), or leave those paths out with --only.',
  );
}

function fail(message: string): never {
  process.stderr.write(`record-call-fixtures: ${message}\n`);
  process.exit(1);
}

async function save(ctx: CallPathContext, name: string, run: RecordedCallRun): Promise<void> {
  const history = await ctx.app.temporal.client.workflow.getHandle(run.workflowId, run.runId).fetchHistory();
  // protobufjs' own object form (longs, enums and bytes as strings) round-trips with History.fromObject.
  const object = temporal.api.history.v1.History.toObject(history as temporal.api.history.v1.History, { longs: String, enums: String, bytes: String });
  writeFileSync(fileOf(name), `${JSON.stringify({ workflowId: run.workflowId, history: object }, null, 1)}\n`, { flag: 'wx' });
  process.stdout.write(`recorded ${path.relative(repoRoot, fileOf(name))} (${history.events?.length} events)\n`);
}

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  await globalSetup();
  const receiver = new WebhookReceiver();
  // The provider timeout leaves the cancel path time to cancel a silent call before it times out.
  const app = await startTestApp({ workers: true, simulator: true, config: { SSRF_ALLOWLIST: '127.0.0.0/8', CALL_PROVIDER_TIMEOUT_SECONDS: '8' } });
  try {
    const hooks = await receiver.start();
    const caller = await callingWorkspace(app);
    const sub = await app.request('POST', '/v1/calls/subscriptions', { key: caller.apiKey, body: { url: `${hooks}/calls` } });
    if (sub.status !== 200) throw new Error(`subscription: ${sub.status} ${JSON.stringify(sub.body)}`);
    const ctx: CallPathContext = { app, receiver, hooks, caller };
    const runs = await Promise.all(
      names.map(async (name) => {
        try {
          return [name, await callPaths[name]!(ctx)] as const;
        } catch (err) {
          // Said now: closing the stack after a failed path may fail too and hide this.
          process.stderr.write(`path ${name} failed: ${(err as Error).stack ?? err}\n`);
          throw err;
        }
      }),
    );
    for (const [name, run] of runs) await save(ctx, name, run);
  } finally {
    await receiver.close();
    await app.close();
    await globalTeardown();
  }
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
