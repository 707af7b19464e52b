// Records automationRun replay fixtures: runs each path through the api on the test stack (a private Postgres and a
// Temporal dev server, as `npm test` starts them) and saves each run's history as
// test/fixtures/automation-history-<path>[-<tag>].json. It never replaces a file: old histories must keep replaying.
//
//   node bin/run-ts.js scripts/record-automation-fixtures.ts [--tag v2] [--only success,async-callback]
import { DefaultLogger, Runtime } from '@temporalio/worker';
import globalSetup from '../test/helpers/global-setup';
import globalTeardown from '../test/helpers/global-teardown';
import { startTestApp } from '../test/helpers/stack';
import { startVendorFake } from '../test/helpers/vendor-fake';
import { WebhookReceiver } from '../test/helpers/webhook-receiver';
import { automationPaths } from './automation-fixture-paths';
import { planRecording, runRecorder } from './fixture-recorder';

const plan = planRecording('automation', Object.keys(automationPaths));
const { names } = plan;

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
      await plan.save(app.temporal.client, name, { workflowId });
    }
  } finally {
    await receiver.close();
    await app.close();
    await fake.stop();
    await globalTeardown();
  }
}

runRecorder(main);
