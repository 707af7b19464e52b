// Records automationRun replay fixtures: runs each path through the api on the test stack (a private Postgres and a
// Temporal dev server, as `npm test` starts them) and saves each run's history as
// test/fixtures/automation-history-<path>[-<tag>].json. It never replaces a file: old histories must keep replaying.
//
//   node bin/run-ts.js scripts/record-automation-fixtures.ts [--tag v2] [--only success,async-callback]
import { temporal } from '@temporalio/proto';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from '../test/helpers/env';
import globalSetup from '../test/helpers/global-setup';
import globalTeardown from '../test/helpers/global-teardown';
import { startTestApp } from '../test/helpers/stack';
import { startVendorFake } from '../test/helpers/vendor-fake';
import { WebhookReceiver } from '../test/helpers/webhook-receiver';
import { automationPaths } from './automation-fixture-paths';

const { values } = parseArgs({ options: { tag: { type: 'string' }, only: { type: 'string' } } });
const names = values.only ? values.only.split(',').map((s) => s.trim()) : Object.keys(automationPaths);
const unknown = names.filter((n) => !(n in automationPaths));
if (unknown.length) fail(`unknown path(s) ${unknown.join(', ')}; known: ${Object.keys(automationPaths).join(', ')}`);
if (values.tag !== undefined && !/^[a-z0-9][a-z0-9-]*$/.test(values.tag)) fail('--tag takes lowercase letters, digits and dashes');

const fileOf = (name: string) => path.join(repoRoot, 'test', 'fixtures', `automation-history-${name}${values.tag ? `-${values.tag}` : ''}.json`);
const taken = names.filter((n) => existsSync(fileOf(n)));
if (taken.length) {
  fail(
    `refusing to overwrite ${taken.map((n) => path.relative(repoRoot, fileOf(n))).join(', ')}: recorded histories must keep replaying. ` +
      'Record under a new name with --tag (e.g. --tag v2), or leave those paths out with --only.',
  );
}

function fail(message: string): never {
  process.stderr.write(`record-automation-fixtures: ${message}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  await globalSetup();
  const receiver = new WebhookReceiver();
  const fake = await startVendorFake();
  const app = await startTestApp({ workers: true, config: { SSRF_ALLOWLIST: '127.0.0.0/8' } });
  try {
    const ws = await app.newWorkspace({ superuser: true });
    receiver.secret = (await app.request('GET', '/v1/journeys/webhook-secret', { key: ws.superuserKey })).body.webhook_secret;
    const ctx = { app, fake, receiver, hooks: await receiver.start(), superuserKey: ws.superuserKey };
    for (const name of names) {
      const workflowId = await automationPaths[name]!(ctx);
      const history = await app.temporal.client.workflow.getHandle(workflowId).fetchHistory();
      // protobufjs' own object form (longs, enums and bytes as strings) round-trips with History.fromObject.
      const object = temporal.api.history.v1.History.toObject(history as temporal.api.history.v1.History, { longs: String, enums: String, bytes: String });
      writeFileSync(fileOf(name), `${JSON.stringify({ workflowId, history: object }, null, 1)}\n`, { flag: 'wx' });
      process.stdout.write(`recorded ${path.relative(repoRoot, fileOf(name))} (${history.events?.length} events)\n`);
    }
  } finally {
    await receiver.close();
    await app.close();
    await fake.stop();
    await globalTeardown();
  }
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
