// Records replay fixtures of the call workflows: runs each call path (scripts/call-fixture-paths.ts) on the test stack
// (a private Postgres and a Temporal dev server, as `npm test` starts them, and the carrier simulator) and saves each
// run's history as test/fixtures/call-history-<path>[-<tag>].json. It never replaces a file: old histories must keep
// replaying, so a new recording gets a new name (--tag).
//
//   node bin/run-ts.js scripts/record-call-fixtures.ts [--tag v2] [--only transfer,busy]
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { callingWorkspace } from '../test/helpers/calls';
import globalSetup from '../test/helpers/global-setup';
import globalTeardown from '../test/helpers/global-teardown';
import { startTestApp } from '../test/helpers/stack';
import { WebhookReceiver } from '../test/helpers/webhook-receiver';
import { callPaths, type CallPathContext } from './call-fixture-paths';
import { planRecording, runRecorder } from './fixture-recorder';

const plan = planRecording('call', Object.keys(callPaths));

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
    await plan.recordAll(app.temporal.client, (name) => callPaths[name]!(ctx));
  } finally {
    await receiver.close();
    await app.close();
    await globalTeardown();
  }
}

runRecorder(main);
