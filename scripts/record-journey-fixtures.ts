// Records replay fixtures: runs each journey path on the test stack (a private Postgres and a Temporal dev server, as
// `npm test` starts them) and saves each run's history as test/fixtures/journey-history-<path>[-<tag>].json.
// It never replaces a file: old histories must keep replaying, so a new recording gets a new name (--tag).
//
//   node bin/run-ts.js scripts/record-journey-fixtures.ts [--tag v2] [--only post-patch,window-wait]
import { DefaultLogger, Runtime } from '@temporalio/worker';
import globalSetup from '../test/helpers/global-setup';
import globalTeardown from '../test/helpers/global-teardown';
import { startTestApp } from '../test/helpers/stack';
import { WebhookReceiver } from '../test/helpers/webhook-receiver';
import type { PathContext } from './journey-fixture-helpers';
import { journeyPaths } from './journey-fixture-paths';
import { planRecording, runRecorder } from './fixture-recorder';

const plan = planRecording('journey', Object.keys(journeyPaths));

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  await globalSetup();
  const receiver = new WebhookReceiver();
  // The simulator plays the calls of the call-step paths.
  const app = await startTestApp({ workers: true, simulator: true, config: { SSRF_ALLOWLIST: '127.0.0.0/8' } });
  try {
    const ctx: PathContext = { app, receiver, hooks: await receiver.start() };
    // Every path at once: the window wait alone takes up to two minutes of real time.
    await plan.recordAll(app.temporal.client, (name) => journeyPaths[name]!(ctx));
  } finally {
    await receiver.close();
    await app.close();
    await globalTeardown();
  }
}

runRecorder(main);
