import type { PoolClient } from 'pg';
import { createApiKey } from '../../src/workspaces/db/api-keys';
import { startTestApp, type TestApp } from '../helpers/stack';
import { eventually } from '../helpers/webhook-receiver';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

type Ws = Awaited<ReturnType<TestApp['newWorkspace']>>;
const failed = (message: string) => ({ status: 'failed', message });
const send = (ws: Ws, method: string, path: string, body: unknown, key?: string) =>
  app.request(method, path, { key: ws.apiKey, body, headers: key === undefined ? {} : { 'idempotency-key': key } });
const leadsOf = (ws: Ws) => app.db.query<{ id: string }>('SELECT id FROM leads WHERE workspace_id = $1', [ws.workspaceId]);

/** Waits until check holds (no time budget is asserted: a loaded machine may take a while). */
const until = (check: () => Promise<boolean>, what: string) => eventually(check, 30_000, what);

/** Holds a row lock on a lead so a request updating it stays in flight until released. */
async function lockLead(id: string): Promise<{ client: PoolClient; pid: number; blocked(): Promise<number[]> }> {
  const client = await app.db.pool.connect();
  await client.query('BEGIN');
  await client.query('SELECT 1 FROM leads WHERE id = $1 FOR UPDATE', [id]);
  const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  const blocked = async () =>
    (await app.db.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))', [pid])).map((r) => r.pid);
  return { client, pid, blocked };
}

describe('Idempotency-Key', () => {
  it('replays the first response for the same key and request, once, with Idempotent-Replayed', async () => {
    const ws = await app.newWorkspace();
    const first = await send(ws, 'POST', '/v1/lead/create', { phone: '17145551234', first_name: 'Ada' }, 'create-1');
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    // Same request with the keys in another order: still the same request.
    const again = await send(ws, 'POST', '/v1/lead/create', { first_name: 'Ada', phone: '17145551234' }, 'create-1');
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await leadsOf(ws)).toHaveLength(1);
    // Without the key the same body is a new request: the phone is taken now.
    const plain = await send(ws, 'POST', '/v1/lead/create', { phone: '17145551234', first_name: 'Ada' });
    expect([plain.status, plain.body]).toEqual([409, failed(`Lead already exists: lead_id ${first.body.lead_id}`)]);
  });

  it('replays an error response just the same', async () => {
    const ws = await app.newWorkspace();
    const lead = (await send(ws, 'POST', '/v1/lead/create', { phone: '17145551234' })).body;
    const dup = await send(ws, 'POST', '/v1/lead/create', { phone: '17145551234' }, 'dup');
    expect([dup.status, dup.body]).toEqual([409, failed(`Lead already exists: lead_id ${lead.lead_id}`)]);
    await app.db.query('DELETE FROM leads WHERE id = $1', [lead.lead_id]);
    const replay = await send(ws, 'POST', '/v1/lead/create', { phone: '17145551234' }, 'dup');
    expect([replay.status, replay.body, replay.headers.get('idempotent-replayed')]).toEqual([409, dup.body, 'true']);
    expect(await leadsOf(ws)).toHaveLength(0);
  });

  it('answers 409 when the key comes back with a different request', async () => {
    const ws = await app.newWorkspace();
    const lead = (await send(ws, 'POST', '/v1/lead/create', { phone: '17145551234' })).body;
    expect((await send(ws, 'PATCH', '/v1/lead/tag', { lead_id: lead.lead_id, tag: 'a' }, 'k')).status).toBe(200);
    for (const [method, path, body] of [
      ['PATCH', '/v1/lead/tag', { lead_id: lead.lead_id, tag: 'b' }],
      ['PATCH', '/v1/lead/update', { lead_id: lead.lead_id, tag: 'a' }],
    ] as const) {
      const res = await send(ws, method, path, body, 'k');
      expect([res.status, res.body]).toEqual([409, failed('Idempotency-Key was already used with a different request')]);
    }
    expect((await app.db.one('SELECT tags FROM leads WHERE id = $1', [lead.lead_id]))!.tags).toEqual(['a']);
  });

  it('answers 409 to a duplicate while the first request is in flight, then replays it', async () => {
    const ws = await app.newWorkspace();
    const lead = (await send(ws, 'POST', '/v1/lead/create', { phone: '17145551234' })).body;
    const body = { lead_id: lead.lead_id, first_name: 'Slow' };
    const lock = await lockLead(lead.lead_id);
    let first: ReturnType<typeof send> | undefined;
    try {
      first = send(ws, 'PATCH', '/v1/lead/update', body, 'in-flight');
      await until(async () => (await lock.blocked()).length === 1, 'the first request to wait on the row lock');
      const dup = await send(ws, 'PATCH', '/v1/lead/update', body, 'in-flight');
      expect([dup.status, dup.body]).toEqual([409, failed('request with this Idempotency-Key is in progress')]);
    } finally {
      await lock.client.query('ROLLBACK');
      lock.client.release();
    }
    const done = await first!;
    expect(done.status).toBe(200);
    expect(done.body.lead.first_name).toBe('Slow');
    const replay = await send(ws, 'PATCH', '/v1/lead/update', body, 'in-flight');
    expect([replay.status, replay.body, replay.headers.get('idempotent-replayed')]).toEqual([200, done.body, 'true']);
  });

  it('releases the key when the first request fails with a 5xx, so a retry runs', async () => {
    const ws = await app.newWorkspace();
    const lead = (await send(ws, 'POST', '/v1/lead/create', { phone: '17145551234' })).body;
    const body = { lead_id: lead.lead_id, company: 'Retried' };
    const lock = await lockLead(lead.lead_id);
    let failedFirst;
    try {
      const first = send(ws, 'PATCH', '/v1/lead/update', body, 'retry-me');
      await until(async () => (await lock.blocked()).length === 1, 'the first request to wait on the row lock');
      // Cancelling its statement makes the handler throw: a 500.
      await app.db.query('SELECT pg_cancel_backend($1)', [(await lock.blocked())[0]]);
      failedFirst = await first;
    } finally {
      await lock.client.query('ROLLBACK');
      lock.client.release();
    }
    expect([failedFirst.status, failedFirst.body]).toEqual([500, failed('Internal server error')]);
    expect(await app.db.query('SELECT key FROM idempotency_keys WHERE workspace_id = $1', [ws.workspaceId])).toEqual([]);
    const retry = await send(ws, 'PATCH', '/v1/lead/update', body, 'retry-me');
    expect([retry.status, retry.headers.get('idempotent-replayed')]).toEqual([200, null]);
    expect(retry.body.lead.company).toBe('Retried');
  });

  it('keeps keys per workspace', async () => {
    const a = await app.newWorkspace();
    const b = await app.newWorkspace();
    const inA = await send(a, 'POST', '/v1/lead/create', { phone: '17145551234' }, 'shared');
    const inB = await send(b, 'POST', '/v1/lead/create', { phone: '17145551234' }, 'shared');
    expect([inA.status, inB.status]).toEqual([200, 200]);
    expect(inB.headers.get('idempotent-replayed')).toBeNull();
    expect(inB.body.lead_id).not.toBe(inA.body.lead_id);
  });

  it("keeps each API key's Idempotency-Keys its own: another key of the workspace with the same key and body runs anew", async () => {
    const ws = await app.newWorkspace();
    const { key: otherKey } = await createApiKey(app.db, ws.workspaceId, { name: 'second client' });
    const body = { phone: '17145551234' };
    const first = await send(ws, 'POST', '/v1/lead/create', body, 'order-1');
    const replay = await send(ws, 'POST', '/v1/lead/create', body, 'order-1');
    expect([replay.status, replay.headers.get('idempotent-replayed'), replay.body]).toEqual([200, 'true', first.body]);
    // Not replayed: the second key's request runs, and finds the phone on file.
    const other = await app.request('POST', '/v1/lead/create', { key: otherKey, body, headers: { 'idempotency-key': 'order-1' } });
    expect([other.status, other.headers.get('idempotent-replayed')]).toEqual([409, null]);
    const callers = await app.db.query<{ caller: string }>('SELECT caller FROM idempotency_keys WHERE workspace_id = $1 ORDER BY created_at', [ws.workspaceId]);
    expect(callers.map((c) => c.caller)).toEqual([expect.stringMatching(/^key:/), expect.stringMatching(/^key:/)]);
  });

  it('forgets a record after 24 h, and a claim abandoned by a crash after 5 minutes', async () => {
    const ws = await app.newWorkspace();
    await send(ws, 'POST', '/v1/lead/create', { phone: '17145551234' }, 'old');
    await app.db.query("UPDATE idempotency_keys SET created_at = now() - interval '25 hours' WHERE workspace_id = $1", [ws.workspaceId]);
    const reused = await send(ws, 'POST', '/v1/lead/create', { phone: '19495550000' }, 'old');
    expect([reused.status, reused.headers.get('idempotent-replayed')]).toEqual([200, null]);

    await app.db.query(
      `INSERT INTO idempotency_keys (workspace_id, caller, key, request_hash, created_at)
       SELECT $1, 'key:' || id, 'crashed', '\\x00', now() - interval '6 minutes' FROM api_keys WHERE workspace_id = $1`,
      [ws.workspaceId],
    );
    const afterCrash = await send(ws, 'POST', '/v1/lead/create', { phone: '13105550000' }, 'crashed');
    expect(afterCrash.status).toBe(200);
    const recent = await send(ws, 'POST', '/v1/lead/create', { phone: '12125550000' }, 'fresh-claim');
    await app.db.query(
      "UPDATE idempotency_keys SET status_code = NULL, created_at = now() - interval '1 minute' WHERE key = 'fresh-claim' AND workspace_id = $1",
      [ws.workspaceId],
    );
    expect(recent.status).toBe(200);
    const stillRunning = await send(ws, 'POST', '/v1/lead/create', { phone: '12125550000' }, 'fresh-claim');
    expect([stillRunning.status, stillRunning.body]).toEqual([409, failed('request with this Idempotency-Key is in progress')]);
  });

  it.each([
    ['is empty', ''],
    ['is too long', 'k'.repeat(256)],
    ['has a control character', 'a\tb'],
  ])('rejects a key that %s', async (_name, key) => {
    const ws = await app.newWorkspace();
    const res = await send(ws, 'POST', '/v1/lead/create', { phone: '17145551234' }, key);
    expect([res.status, res.body]).toEqual([400, failed('Idempotency-Key: must be 1–255 printable ASCII characters')]);
    expect(await leadsOf(ws)).toHaveLength(0);
  });

  it('accepts a 255-character key', async () => {
    const ws = await app.newWorkspace();
    const key = '~'.repeat(255);
    expect((await send(ws, 'POST', '/v1/lead/create', { phone: '17145551234' }, key)).status).toBe(200);
    expect((await send(ws, 'POST', '/v1/lead/create', { phone: '17145551234' }, key)).headers.get('idempotent-replayed')).toBe('true');
  });
});
