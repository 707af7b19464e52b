import { importSteps, finished, leadRow, newPhone, runOf } from '../helpers/journeys';
import { startTestApp, type TestApp } from '../helpers/stack';
import { startVendorFake, type VendorFake } from '../helpers/vendor-fake';
import type { JourneyState } from '../../workflows/journeys/journey-messages';

jest.setTimeout(120_000);

let app: TestApp;
let fake: VendorFake;

beforeAll(async () => {
  fake = await startVendorFake();
  app = await startTestApp({ workers: true, config: { SSRF_ALLOWLIST: '127.0.0.1/8' } });
});
afterAll(async () => {
  await app?.close();
  await fake?.stop();
});

const steps = (s: JourneyState) => s.history.map((h) => `${h.step_id}:${h.outcome}`);

describe('the journey step automation', () => {
  it('runs the action inline in the enrollment with the lead as callData and branches on its success', async () => {
    // The vendor refuses company "Broken": one lead succeeds, the other fails.
    fake.on('POST', '/crm', (req) =>
      (req.body as { company?: string }).company === 'Broken' ? { status: 422, body: { message: 'bad company' } } : { status: 201, body: { id: 'c1' } },
    );
    const ws = await app.newWorkspace({ superuser: true });
    const journey = await importSteps(app, ws.workspaceId, [
      {
        id: 'crm',
        kind: 'automation',
        automationType: 'proxy',
        action: 'request',
        params: {
          apiMethod: 'POST',
          apiURL: `${fake.url}/crm`,
          requestBodyJson: { company: 'company' },
          customFields: [{ field: 'requestBodyJson.company', customFieldEnabled: true }],
        },
      },
      { id: 'ok', kind: 'branch', cases: [{ when: { outcome: 'done' }, goto: 'synced' }], else: 'failed' },
      { id: 'synced', kind: 'tag', tag: 'synced' },
      { id: 'stop', kind: 'end' },
      { id: 'failed', kind: 'tag', tag: 'sync_failed' },
    ]);
    const enroll = async (company: string) =>
      (await app.request('POST', '/v1/lead/sendtoworkflow', { key: ws.apiKey, body: { workflow_id: journey.id, record: { phone: newPhone(), company } } })).body
        .lead_id as string;
    const good = await enroll('Acme');
    const bad = await enroll('Broken');

    const goodEnd = await finished(app, journey.id, good);
    const badEnd = await finished(app, journey.id, bad);
    expect(steps(goodEnd)).toEqual(['crm:done', 'ok:done', 'synced:done', 'stop:done']);
    expect(steps(badEnd)).toEqual(['crm:failed', 'ok:done', 'failed:done']);
    expect(goodEnd.history[0]).toMatchObject({ step_id: 'crm', outcome: 'done' });
    expect(badEnd.history[0]).toMatchObject({ step_id: 'crm', outcome: 'failed', detail: expect.stringContaining('vendor_rejected') });
    expect((await leadRow(app, ws.workspaceId, good)).tags).toEqual(['synced']);
    expect((await leadRow(app, ws.workspaceId, bad)).tags).toEqual(['sync_failed']);
    expect(
      fake
        .received('POST', '/crm')
        .map((r) => (r.body as { company: string }).company)
        .sort(),
    ).toEqual(['Acme', 'Broken']);

    // The run is recorded like an endpoint run, in the workspace's name, naming the enrollment's run it ran in (no
    // child run of its own).
    const requestId = /automation (\S+)/.exec(goodEnd.history[0]!.detail!)![1]!;
    const stored = await app.request('GET', `/api/automation/runs/${requestId}`, { headers: { 'x-key': ws.superuserKey } });
    const enrollment = runOf(app, journey.id, good);
    expect(stored.body).toMatchObject({ status: 'succeeded', automationType: 'proxy', nodeId: 'crm', superuser: true, workflowId: enrollment.workflowId });
    const children = (await enrollment.fetchHistory()).events!.filter((e) => e.startChildWorkflowExecutionInitiatedEventAttributes);
    expect(children).toEqual([]);
  });
});
