import { normalizePhone } from '../../src/core/phone';
import { startTestApp, type TestApp } from '../helpers/stack';
import { eventually } from '../helpers/webhook-receiver';
import { killWorkerProcesses, startWorkerProcess } from '../helpers/worker-process';

let app: TestApp;
beforeAll(async () => {
  // No in-process workers: the worker runs as a child process the test kills. Chunks of 10 records.
  app = await startTestApp({ config: { LEAD_IMPORT_CHUNK_ROWS: '10' } });
});
afterAll(async () => {
  killWorkerProcesses();
  await app.close();
});

const phone = (n: number) => {
  const p = `1628${String(3_000_000 + n)}`;
  expect(normalizePhone(p, 'US')).toBe(p);
  return p;
};

describe('a worker killed with SIGKILL in the middle of a lead import', () => {
  // The crash point is a chunk in flight: its transaction has inserted its new leads and waits on a row lock the test
  // holds (record 35 updates a lead on file) when the worker dies. Chunks 1–3 are committed, the rest not yet started.
  it('goes on from the last committed chunk and applies every record exactly once', async () => {
    const ws = await app.newWorkspace();
    const onFile = await app.request('POST', '/v1/lead/create', { key: ws.apiKey, body: { phone: phone(35), first_name: 'Before' } });
    expect(onFile.status).toBe(200);
    const locker = await app.db.pool.connect();
    await locker.query('BEGIN');
    await locker.query('SELECT id FROM leads WHERE id = $1 FOR NO KEY UPDATE', [onFile.body.lead_id]);

    const csv = ['phone,first_name', ...Array.from({ length: 60 }, (_, i) => `${phone(i + 1)},Row${i + 1}`)].join('\n');
    const res = await app.request('POST', '/v1/leads/import?on_conflict=update&tag=imported', {
      key: ws.apiKey,
      body: csv,
      headers: { 'content-type': 'text/csv' },
    });
    expect(res.status).toBe(202);
    const id: string = res.body.import_id;
    let worker = await startWorkerProcess(app);
    const progress = () => app.db.one<{ rows_done: number; created: number }>('SELECT rows_done, created FROM lead_imports WHERE id = $1', [id]);
    const waiting = async () =>
      Number(
        (await app.db.one<{ n: string }>(
          `SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database() AND query LIKE 'UPDATE leads SET%'`,
        ))!.n,
      );
    await eventually(async () => (await waiting()) === 1 && (await progress())!.rows_done === 30, 60_000, 'the fourth chunk waiting on the lock');
    // The chunk in flight inserted its new leads, uncommitted: nobody else sees them.
    expect(await app.db.one('SELECT count(*)::int AS n FROM leads WHERE workspace_id = $1', [ws.workspaceId])).toEqual({ n: 31 });

    worker.kill('SIGKILL');
    await new Promise((r) => worker.once('exit', r));
    expect(worker.signalCode).toBe('SIGKILL');
    // The dead worker's transaction gets its lock now, then finds its client gone and rolls back.
    await locker.query('COMMIT');
    locker.release();
    await eventually(async () => (await waiting()) === 0, 30_000, 'the dead transaction gone');
    expect(await progress()).toEqual({ rows_done: 30, created: 30 });

    worker = await startWorkerProcess(app);
    const done = await eventually(
      async () => {
        const r = await app.request('GET', `/v1/leads/imports/${id}`, { key: ws.apiKey });
        return r.body.status === 'completed' ? r.body : undefined;
      },
      90_000,
      'the import to complete',
    );
    expect(done.rows).toEqual({ total: 60, read: 60, created: 59, updated: 1, skipped: 0, failed: 0 });
    expect(done.errors).toEqual([]);

    const leads = await app.db.query<{ phone: string; first_name: string; tags: string[] }>(
      'SELECT phone, first_name, tags FROM leads WHERE workspace_id = $1 ORDER BY phone',
      [ws.workspaceId],
    );
    expect(leads).toEqual(Array.from({ length: 60 }, (_, i) => ({ phone: phone(i + 1), first_name: `Row${i + 1}`, tags: ['imported'] })));
    const items = await app.db.query<{ row_number: number; outcome: string }>(
      'SELECT row_number, outcome FROM lead_import_items WHERE import_id = $1 ORDER BY row_number',
      [id],
    );
    expect(items).toEqual(Array.from({ length: 60 }, (_, i) => ({ row_number: i + 1, outcome: i + 1 === 35 ? 'updated' : 'created' })));
    worker.kill('SIGTERM');
    await new Promise((r) => worker.once('exit', r));
  });
});

describe('an import whose stored record cannot be read', () => {
  it('fails with the line named, and applies nothing of that chunk', async () => {
    const ws = await app.newWorkspace();
    const csv = ['phone', ...Array.from({ length: 5 }, (_, i) => phone(100 + i))].join('\n');
    // No worker runs yet: the records wait in the staging table, where one is damaged (as only tampering could).
    const res = await app.request('POST', '/v1/leads/import', { key: ws.apiKey, body: csv, headers: { 'content-type': 'text/csv' } });
    expect(res.status).toBe(202);
    await app.db.query(`UPDATE lead_import_rows SET record = '{"phone":' WHERE import_id = $1 AND row_number = 3`, [res.body.import_id]);
    const worker = await startWorkerProcess(app);
    const done = await eventually(
      async () => {
        const r = await app.request('GET', `/v1/leads/imports/${res.body.import_id}`, { key: ws.apiKey });
        return r.body.status === 'failed' ? r.body : undefined;
      },
      60_000,
      'the import to fail',
    );
    expect(done).toMatchObject({ message: 'line 4: the stored record cannot be read', rows: { total: 5, read: 0, created: 0, failed: 0 } });
    expect(await app.db.one('SELECT count(*)::int AS n FROM leads WHERE workspace_id = $1', [ws.workspaceId])).toEqual({ n: 0 });
    worker.kill('SIGTERM');
    await new Promise((r) => worker.once('exit', r));
  });
});
