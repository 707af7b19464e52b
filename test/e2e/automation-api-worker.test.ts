import { randomBytes } from 'node:crypto';
import { createDb, type Db } from '../../src/db/pool';
import { createApiKey } from '../../src/workspaces/db/api-keys';
import { createWorkspace } from '../../src/workspaces/db/workspaces';
import { createLogger } from '../../src/telemetry/log';
import { startApi, type RunningApi } from '../../src/api/main';
import { testEnv } from '../helpers/env';
import { testConfig } from '../helpers/stack';
import { startVendorFake, type VendorFake } from '../helpers/vendor-fake';

jest.setTimeout(180_000);

// The standalone api with API_AUTOMATION_WORKER and no other worker on its task queues: only its own worker can run.
describe('API_AUTOMATION_WORKER: the api runs automations on its in-process worker', () => {
  let api: RunningApi;
  let fake: VendorFake;
  let db: Db;
  let key: string;

  beforeAll(async () => {
    fake = await startVendorFake();
    const config = testConfig({
      API_AUTOMATION_WORKER: 'true',
      WORKER_BUNDLE_PATH: testEnv('bundlePath'),
      WORKER_SHUTDOWN_GRACE_MS: '1000',
      SSRF_ALLOWLIST: '127.0.0.1/8',
    });
    api = await startApi(config, { logger: createLogger('silent', 'test') });
    db = createDb(config.DATABASE_URL!, { max: 2, logger: createLogger('silent', 'test') });
    const ws = await createWorkspace(db, { name: `test ${randomBytes(3).toString('hex')}` });
    key = (await createApiKey(db, ws.id, { name: 'admin', superuser: true })).key;
  });
  afterAll(async () => {
    await api?.close();
    await db?.close();
    await fake?.stop();
  });

  it('runs a sync automation to its end and records it', async () => {
    fake.on('POST', '/ok', { status: 200, body: { ok: true } });
    const body = { automationType: 'proxy', nodeParams: { params: { apiMethod: 'POST', apiURL: `${fake.url}/ok`, requestBodyJson: { n: 1 } } } };
    const res = await fetch(`${api.url}/api/automation/execute`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-key': key },
      body: JSON.stringify(body),
    });
    const out = (await res.json()) as { success: boolean; requestId: string; data: unknown };
    expect(res.status).toBe(200);
    expect(out).toMatchObject({ success: true, data: { status: 200, body: { ok: true } } });
    expect(fake.received('POST', '/ok')).toHaveLength(1);
    const stored = await fetch(`${api.url}/api/automation/runs/${out.requestId}`, { headers: { 'x-key': key } });
    expect(await stored.json()).toMatchObject({ requestId: out.requestId, status: 'succeeded', success: true });
  });
});
