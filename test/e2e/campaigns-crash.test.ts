// A worker killed (SIGKILL) in the middle of a campaign: a new worker finishes it, nothing lost and nobody dialled twice
// (the carrier simulator's ledger is the judge).
import { callingWorkspace, phoneEnding } from '../helpers/calls';
import { startTestApp, type TestApp } from '../helpers/stack';
import { killWorkerProcesses, startWorkerProcess } from '../helpers/worker-process';
import { eventually } from '../helpers/webhook-receiver';

jest.setTimeout(300_000);

let app: TestApp;
beforeAll(async () => {
  // No in-process workers: the worker runs as a child process we can kill. Speed 1: calls last ~8 s.
  app = await startTestApp({ simulator: { speed: 1 } });
});
afterAll(async () => {
  killWorkerProcesses();
  await app.close();
});

const startWorker = () => startWorkerProcess(app, { TELEPHONY_BASE_URL: app.simulator!.url, TELEPHONY_CALLBACK_BASE_URL: app.url });
const dialled = (phone: string) => app.simulator!.ledger.entries.filter((e) => e.to.replace(/^\+/, '') === phone);

describe('a worker killed with SIGKILL in the middle of a campaign', () => {
  it('finishes the campaign after a restart with exact counts, each lead dialled as often as the rules say and no call twice', async () => {
    const ws = await callingWorkspace(app);
    const rules = { human: '0001', voicemail: '0002', no_answer: '0003', busy: '0004', transferred: '0005', plain: '4321' };
    const phones = Object.fromEntries(Object.entries(rules).map(([k, last4]) => [k, phoneEnding(last4)]));
    const leadIds: string[] = [];
    for (const p of Object.values(phones)) leadIds.push((await app.request('POST', '/v1/lead/create', { key: ws.apiKey, body: { phone: p } })).body.lead_id);
    const worker = await startWorker();
    const res = await app.request('POST', '/v1/campaigns', {
      key: ws.apiKey,
      body: {
        name: 'Crash',
        agent: ws.agentId,
        audience: { lead_ids: leadIds },
        window: { start: '00:00', end: '23:59' },
        max_concurrent: 3,
        retries: { attempts: 1, spacing: 'PT0.001S' },
      },
    });
    expect(res.status).toBe(200);
    const id = res.body.campaign_id as string;

    // Three calls in progress at the provider, their sids on record (see calls-crash.test.ts), none ended: kill.
    const live = async () =>
      (
        await app.db.query(
          `SELECT 1 FROM campaign_calls k JOIN calls c ON c.id = k.call_id::text WHERE k.campaign_id = $1 AND c.provider_sid IS NOT NULL AND k.outcome IS NULL`,
          [id],
        )
      ).length;
    await eventually(async () => (await live()) === 3, 60_000, 'three campaign calls in progress');
    worker.kill('SIGKILL');
    await new Promise((r) => worker.once('exit', r));
    expect(app.simulator!.ledger.entries.filter((e) => e.status === 'completed' || e.status === 'busy' || e.status === 'no-answer').length).toBeLessThan(6);

    await startWorker();
    const c = await eventually(
      async () => {
        const body = (await app.request('GET', `/v1/campaigns/${id}`, { key: ws.apiKey })).body.campaign;
        return body.finished_at ? body : undefined;
      },
      180_000,
      'the campaign to end',
    );
    expect(c.status).toBe('completed');
    expect(c.counts).toMatchObject({
      total: 6,
      human: 2,
      voicemail: 1,
      no_answer: 1,
      busy: 1,
      transferred: 1,
      failed: 0,
      canceled: 0,
      skipped: 0,
      pending: 0,
      dialing: 0,
    });
    const times = Object.fromEntries(Object.entries(phones).map(([k, p]) => [k, dialled(p).length]));
    expect(times).toEqual({ human: 1, voicemail: 1, no_answer: 2, busy: 2, transferred: 1, plain: 1 });
    for (const p of Object.values(phones)) for (const e of dialled(p)) expect(e.repeatedCreates).toBe(0);
    // Every call the campaign recorded is one placement, and the other way round.
    const recorded = await app.db.query<{ call_id: string }>('SELECT call_id FROM campaign_calls WHERE campaign_id = $1', [id]);
    const placed = Object.values(phones).flatMap((p) => dialled(p).map((e) => e.callId));
    expect(recorded.map((r) => r.call_id).sort()).toEqual(placed.sort());
  });
});
