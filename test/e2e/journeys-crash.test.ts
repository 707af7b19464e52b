import { defineCustomField } from '../../src/leads/db/leads';
import { enrollmentRows, finished, importSteps, leadRow, newPhone } from '../helpers/journeys';
import { startTestApp, type TestApp } from '../helpers/stack';
import { killWorkerProcesses, startWorkerProcess } from '../helpers/worker-process';
import { eventually, WebhookReceiver } from '../helpers/webhook-receiver';

let app: TestApp;
const receiver = new WebhookReceiver();
let hooks: string;

beforeAll(async () => {
  app = await startTestApp(); // no in-process workers: the worker runs as a child process we can kill
  hooks = await receiver.start();
});
afterAll(async () => {
  killWorkerProcesses();
  await receiver.close();
  await app.close();
});

describe('a worker killed with SIGKILL in the middle of journeys', () => {
  // The crash point is a step in flight, not a timer: each run's mid_tag UPDATE waits on a row lock the test holds when
  // the worker dies, with a tag and a webhook done before it and a tag and a webhook still to come. Nothing waits for a
  // workflow timer. (A sleeping case on Temporal's time-skipping server was tried: after the SIGKILL, the task each
  // fired timer scheduled was never started by the new worker process, while new runs went through it; apparently
  // handed to a long poll the dead process left open, and the Java test server does not offer it again.)
  it('resumes after a restart and does every step exactly once', async () => {
    const ws = await app.newWorkspace({ superuser: true });
    receiver.secret = (await app.request('GET', '/v1/journeys/webhook-secret', { key: ws.superuserKey })).body.webhook_secret;
    const journey = await importSteps(app, ws.workspaceId, [
      { id: 'first_tag', kind: 'tag', tag: 'one' },
      { id: 'first_hook', kind: 'webhook', url: `${hooks}/crash/first` },
      { id: 'mid_tag', kind: 'tag', tag: 'mid' },
      { id: 'second_tag', kind: 'tag', tag: 'two' },
      { id: 'second_hook', kind: 'webhook', url: `${hooks}/crash/second` },
      { id: 'stop', kind: 'end' },
    ]);
    // Every run is held at first_hook (its tag done) until the leads are locked, so each then stops inside mid_tag.
    receiver.hold('/crash/first');
    let worker = await startWorkerProcess(app);
    const enrolled = await Promise.all(
      Array.from({ length: 5 }, () =>
        app.request('POST', '/v1/lead/sendtoworkflow', { key: ws.apiKey, body: { workflow_id: journey.id, record: { phone: newPhone() } } }),
      ),
    );
    for (const res of enrolled) expect(res.status).toBe(200);
    const leads: string[] = enrolled.map((res) => res.body.lead_id);
    await eventually(async () => receiver.heldCount('/crash/first') === leads.length, 60_000, 'every run at its first webhook');

    // NO KEY UPDATE: blocks the tag's UPDATE, not the enrollment row's foreign-key check.
    const locker = await app.db.pool.connect();
    await locker.query('BEGIN');
    await locker.query('SELECT id FROM leads WHERE id = ANY($1) FOR NO KEY UPDATE', [leads]);
    receiver.release('/crash/first');
    const waiting = async () =>
      Number(
        (await app.db.one<{ n: string }>(
          `SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database() AND query LIKE '%array_append%'`,
        ))!.n,
      );
    await eventually(async () => (await waiting()) === leads.length, 60_000, 'every run inside mid_tag');

    worker.kill('SIGKILL');
    await new Promise((r) => worker.once('exit', r));
    expect(worker.signalCode).toBe('SIGKILL');
    // The dead worker's UPDATEs still run once the lock goes (the database does not know their sender is gone): the
    // retries then find the tag there, and must not add it again. Nothing after mid_tag has run.
    await locker.query('COMMIT');
    locker.release();
    expect(receiver.on('/crash/second')).toHaveLength(0);

    worker = await startWorkerProcess(app);
    for (const lead of leads) {
      const end = await finished(app, journey.id, lead);
      expect(end.status).toBe('completed');
      expect(end.history.map((h) => `${h.seq}:${h.step_id}:${h.outcome}`)).toEqual([
        '1:first_tag:done',
        '2:first_hook:delivered',
        '3:mid_tag:done',
        '4:second_tag:done',
        '5:second_hook:delivered',
        '6:stop:done',
      ]);
      expect((await leadRow(app, ws.workspaceId, lead)).tags).toEqual(['one', 'mid', 'two']);
      expect(await enrollmentRows(app, lead)).toMatchObject([{ status: 'completed', current_step: 'stop' }]);
    }
    const deliveries = [...receiver.on('/crash/first'), ...receiver.on('/crash/second')];
    expect(deliveries.every((d) => d.verified)).toBe(true);
    const events = new Set(deliveries.map((d) => d.eventId));
    expect(events.size).toBe(leads.length * 2);
    expect(receiver.processed.filter((id) => events.has(id))).toHaveLength(leads.length * 2);
    // No delivery was in flight at the kill: not even a duplicate for the receiver to drop.
    expect(deliveries).toHaveLength(leads.length * 2);
    worker.kill('SIGTERM');
    await new Promise((r) => worker.once('exit', r));
  });
});

describe('a worker killed with SIGKILL under load, with activities in flight', () => {
  // Three groups of leads, each caught in the middle of a different side effect when the worker dies: a tag and an
  // update_lead whose UPDATE waits on a row lock the test holds, and a webhook whose request the receiver got and
  // processed but has not answered yet. After a restart, Temporal retries each (after its start-to-close timeout).
  const perGroup = 20;

  it('does every side effect exactly once, by the receiver ledger and the leads in Postgres', async () => {
    const ws = await app.newWorkspace({ superuser: true });
    receiver.secret = (await app.request('GET', '/v1/journeys/webhook-secret', { key: ws.superuserKey })).body.webhook_secret;
    await defineCustomField(app.db, ws.workspaceId, 'plan');
    const then = { id: 'then', kind: 'tag', tag: 'then' };
    const stop = { id: 'stop', kind: 'end' };
    const journeys = {
      tag: await importSteps(app, ws.workspaceId, [{ id: 'mark', kind: 'tag', tag: 'marked' }, then, stop]),
      update: await importSteps(app, ws.workspaceId, [{ id: 'set', kind: 'update_lead', fields: { company: 'Acme', plan: 'gold' } }, then, stop]),
      webhook: await importSteps(app, ws.workspaceId, [{ id: 'notify', kind: 'webhook', url: `${hooks}/load/notify` }, then, stop]),
    };
    const leads: Record<keyof typeof journeys, string[]> = { tag: [], update: [], webhook: [] };
    for (const group of Object.keys(leads) as (keyof typeof journeys)[]) {
      for (let i = 0; i < perGroup; i++) {
        const res = await app.request('POST', '/v1/lead/create', { key: ws.apiKey, body: { phone: newPhone() } });
        expect(res.status).toBe(200);
        leads[group].push(res.body.lead_id);
      }
    }

    // NO KEY UPDATE: blocks the steps' UPDATEs, not the enrollment row's foreign-key check.
    const locker = await app.db.pool.connect();
    await locker.query('BEGIN');
    await locker.query('SELECT id FROM leads WHERE id = ANY($1) FOR NO KEY UPDATE', [[...leads.tag, ...leads.update]]);
    receiver.hold('/load/notify');

    let worker = await startWorkerProcess(app, { DATABASE_POOL_MAX: '60' });
    const enrollments = (Object.keys(leads) as (keyof typeof journeys)[]).flatMap((group) =>
      leads[group].map((lead) => app.request('POST', '/v1/lead/sendtoworkflow', { key: ws.apiKey, body: { workflow_id: journeys[group].id, lead_id: lead } })),
    );
    for (const res of await Promise.all(enrollments)) expect(res.status).toBe(200);

    const waiting = async (pattern: string) =>
      Number(
        (await app.db.one<{ n: string }>(
          `SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database() AND query LIKE $1`,
          [pattern],
        ))!.n,
      );
    await eventually(
      async () =>
        (await waiting('%array_append%')) === perGroup &&
        (await waiting('UPDATE leads SET company%')) === perGroup &&
        receiver.heldCount('/load/notify') === perGroup,
      90_000,
      'every activity of the three groups in flight',
    );

    worker.kill('SIGKILL');
    await new Promise((r) => worker.once('exit', r));
    expect(worker.signalCode).toBe('SIGKILL');
    // The dead worker's statements still run once the locks go (the database does not know their sender is gone):
    // the retries then find the work done, and must leave it as it is.
    await locker.query('COMMIT');
    locker.release();
    receiver.release('/load/notify');

    worker = await startWorkerProcess(app);
    for (const group of Object.keys(leads) as (keyof typeof journeys)[]) {
      for (const lead of leads[group]) {
        const end = await finished(app, journeys[group].id, lead);
        expect(end.status).toBe('completed');
        expect(end.history.map((h) => `${h.seq}:${h.step_id}`)).toEqual([`1:${{ tag: 'mark', update: 'set', webhook: 'notify' }[group]}`, '2:then', '3:stop']);
        expect(await enrollmentRows(app, lead)).toMatchObject([{ status: 'completed', current_step: 'stop' }]);
      }
    }

    for (const lead of leads.tag) expect((await leadRow(app, ws.workspaceId, lead)).tags).toEqual(['marked', 'then']);
    for (const lead of leads.update) {
      const row = await leadRow(app, ws.workspaceId, lead);
      expect([row.company, row.custom_fields, row.tags]).toEqual(['Acme', { plan: 'gold' }, ['then']]);
    }
    for (const lead of leads.webhook) expect((await leadRow(app, ws.workspaceId, lead)).tags).toEqual(['then']);

    const deliveries = receiver.on('/load/notify');
    expect(deliveries.every((d) => d.verified && d.eventId)).toBe(true);
    const ledger = receiver.ledger('/load/notify');
    expect(ledger.size).toBe(perGroup); // one event per lead
    // Each event was delivered twice: once to the killed worker (processed, never answered), once on the retry,
    // which the receiver recognised by its event id and did not process again.
    expect([...ledger.values()]).toEqual(Array(perGroup).fill(2));
    const processed = receiver.processed.filter((id) => ledger.has(id));
    expect(processed).toHaveLength(perGroup);
    expect(new Set(processed).size).toBe(perGroup);

    worker.kill('SIGTERM');
    await new Promise((r) => worker.once('exit', r));
  });
});
