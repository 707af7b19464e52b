// Records leadImport replay fixtures: runs each path through the api on the test stack and saves each run's history
// as test/fixtures/lead-import-history-<path>[-<tag>].json. It never replaces a file: old histories must keep replaying.
//
//   node bin/run-ts.js scripts/record-lead-import-fixtures.ts [--tag v2] [--only completed]
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { leadImportWorkflowId } from '../src/temporal/ids';
import globalSetup from '../test/helpers/global-setup';
import globalTeardown from '../test/helpers/global-teardown';
import { startTestApp, type TestApp } from '../test/helpers/stack';
import { planRecording, runRecorder } from './fixture-recorder';

/** Every path, by name: each uploads a file and returns the run's workflow id once it ended. */
const leadImportPaths: Record<string, (app: TestApp, key: string) => Promise<string>> = {
  // Five records in chunks of two (three chunk activities), one of them failing on its own.
  completed: async (app, key) => {
    const csv = ['phone,first_name', '14152000001,Ann', 'nope,Bob', '14152000003,Cy', '14152000004,Di', '14152000001,Again'].join('\n');
    const res = await app.request('POST', '/v1/leads/import', { key, body: csv, headers: { 'content-type': 'text/csv' } });
    if (res.status !== 202) throw new Error(`import: ${res.status} ${JSON.stringify(res.body)}`);
    const workflowId = leadImportWorkflowId(res.body.import_id);
    await app.temporal.client.workflow.getHandle(workflowId).result();
    return workflowId;
  },
};

const plan = planRecording('lead-import', Object.keys(leadImportPaths));

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  await globalSetup();
  const app = await startTestApp({ workers: true, config: { LEAD_IMPORT_CHUNK_ROWS: '2' } });
  try {
    const ws = await app.newWorkspace();
    for (const name of plan.names) await plan.save(app.temporal.client, name, { workflowId: await leadImportPaths[name]!(app, ws.apiKey) });
  } finally {
    await app.close();
    await globalTeardown();
  }
}

runRecorder(main);
