// Issue 28, "answers name their run": every answer that starts or signals a durable run carries Switchboard-Workflow-Id
// and a Link to the run in the Temporal UI, bodies unchanged, and an Idempotency-Key replay names the same run.
import { campaignWorkflowId, callWorkflowId, enrollmentWorkflowId, leadImportWorkflowId } from '../../src/temporal/ids';
import { callingWorkspace, phoneEnding } from '../helpers/calls';
import { importSteps, newPhone } from '../helpers/journeys';
import { startTestApp, type HttpResult, type TestApp } from '../helpers/stack';
import { startVendorFake, type VendorFake } from '../helpers/vendor-fake';

jest.setTimeout(180_000);

const UI = 'https://temporal.example.test/ui';

let app: TestApp;
let fake: VendorFake;
beforeAll(async () => {
  fake = await startVendorFake();
  // A trailing slash on the setting still gives one slash in the links.
  app = await startTestApp({ workers: true, simulator: true, config: { TEMPORAL_UI_URL: `${UI}/`, SSRF_ALLOWLIST: '127.0.0.1/8' } });
});
afterAll(async () => {
  await app?.close();
  await fake?.stop();
});

const linkTo = (workflowId: string) =>
  `<${UI}/namespaces/${encodeURIComponent(app.config.TEMPORAL_NAMESPACE)}/workflows/${encodeURIComponent(workflowId)}>; rel="workflow"`;

/** The answer's status and the run it names (both headers), and that the run exists in Temporal. */
async function naming(what: string, res: HttpResult, status = 200) {
  const id = res.headers.get('switchboard-workflow-id');
  expect([what, res.status, res.body?.status === 'failed' ? res.body.message : 'ok']).toEqual([what, status, 'ok']);
  expect([what, res.headers.get('link')]).toEqual([what, id && linkTo(id)]);
  if (id) await app.temporal.client.workflow.getHandle(id).describe();
  return id;
}

describe('answers name their run', () => {
  it('on every route that starts or signals a run, and again on an Idempotency-Key replay', async () => {
    const ws = await callingWorkspace(app);
    const req = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      app.request(method, path, { key: ws.apiKey, body, headers });
    const journey = await importSteps(app, ws.workspaceId, [{ id: 'wait', kind: 'wait', duration: 'PT1H' }]);
    const replays: { what: string; first: HttpResult; method: string; path: string; body: unknown; headers: Record<string, string> }[] = [];
    const keyed = async (what: string, method: string, path: string, body: unknown, headers: Record<string, string> = {}) => {
      const all = { ...headers, 'idempotency-key': `${what}-1` };
      const first = await req(method, path, body, all);
      replays.push({ what, first, method, path, body, headers: all });
      return first;
    };

    // Enrollment: a new run, then the same run for a lead already in it, then the unenroll update.
    const sent = await keyed('enroll', 'POST', '/v1/lead/sendtoworkflow', { workflow_id: journey.id, record: { phone: newPhone() } });
    const leadId = sent.body.lead_id as string;
    const enrollment = enrollmentWorkflowId(journey.id, leadId);
    expect(sent.body).toEqual({ status: 'success', lead_id: leadId, workflow_assigned: true, message: expect.any(String) });
    expect(await naming('enroll', sent)).toBe(enrollment);
    const again = await req('POST', '/v1/lead/sendtoworkflow', { workflow_id: journey.id, lead_id: leadId });
    expect(again.body.workflow_assigned).toBe(false);
    expect(await naming('enroll again', again)).toBe(enrollment);
    expect(await naming('update and enroll', await req('PATCH', '/v1/lead/sendtoworkflow', { workflow_id: journey.id, lead_id: leadId }))).toBe(enrollment);
    expect(await naming('unenroll', await req('POST', '/v1/lead/unenroll', { workflow_id: journey.id, lead_id: leadId }))).toBe(enrollment);
    // A refused request names no run.
    const refused = await req('POST', '/v1/lead/sendtoworkflow', { workflow_id: journey.id, record: { first_name: 'No phone' } });
    expect([refused.status, refused.headers.get('switchboard-workflow-id'), refused.headers.get('link')]).toEqual([400, null, null]);

    // A call that rings on ('0007': the provider never says more), then its cancellation.
    const call = await keyed('call', 'POST', '/v1/agent', { agent: ws.agentId, phone: phoneEnding('0007') });
    expect(Object.keys(call.body).sort()).toEqual(['agent', 'call_id', 'from', 'to']);
    expect(await naming('call', call)).toBe(callWorkflowId(call.body.call_id));
    expect(await naming('cancel', await req('POST', '/v1/calls/cancel', { call_id: call.body.call_id }))).toBe(callWorkflowId(call.body.call_id));

    // A campaign scheduled for later, steered by each control.
    const startAt = new Date(Date.now() + 86_400_000).toISOString();
    const campaign = await keyed('campaign', 'POST', '/v1/campaigns', { name: 'Later', agent: ws.agentId, audience: { tag: 'nobody' }, start_at: startAt });
    expect(campaign.body).toEqual({ campaign_id: expect.any(String), status: 'scheduled' });
    const campaignRun = campaignWorkflowId(campaign.body.campaign_id);
    expect(await naming('campaign', campaign)).toBe(campaignRun);
    for (const action of ['pause', 'resume', 'cancel']) {
      expect(await naming(action, await req('POST', `/v1/campaigns/${campaign.body.campaign_id}/${action}`))).toBe(campaignRun);
    }

    // A lead import (a streamed body: its replay reads the file again to compare).
    const imported = await keyed('import', 'POST', '/v1/leads/import', `phone\n${newPhone()}\n`, { 'content-type': 'text/csv' });
    expect(await naming('import', imported, 202)).toBe(leadImportWorkflowId(imported.body.import_id));

    // Replays answer the first body and name the first answer's run.
    for (const r of replays) {
      const replay = await req(r.method, r.path, r.body, r.headers);
      expect([r.what, replay.headers.get('idempotent-replayed'), replay.body]).toEqual([r.what, 'true', r.first.body]);
      expect(await naming(`${r.what} replayed`, replay, r.first.status)).toBe(r.first.headers.get('switchboard-workflow-id'));
    }
  });

  it('on the automation endpoint, sync and async, and not when the request is refused before a run', async () => {
    const ws = await app.newWorkspace({ superuser: true });
    const run = (body: unknown, key?: string) =>
      app.request('POST', '/api/automation/execute', { body, headers: { 'x-key': ws.superuserKey, ...(key ? { 'idempotency-key': key } : {}) } });
    fake.on('POST', '/ok', { status: 201, body: { id: 'x1' } });
    fake.on('POST', '/callback', { status: 200, body: {} });
    const proxy = { automationType: 'proxy', nodeParams: { params: { apiMethod: 'POST', apiURL: `${fake.url}/ok`, requestBodyJson: { a: 1 } } } };

    const sync = await run(proxy, 'auto-1');
    expect(sync.body.success).toBe(true);
    expect(await naming('sync', sync)).toBe(sync.body.metadata.workflowId);
    const replay = await run(proxy, 'auto-1');
    expect([replay.headers.get('idempotent-replayed'), replay.body]).toEqual(['true', sync.body]);
    expect(await naming('sync replayed', replay)).toBe(sync.body.metadata.workflowId);

    const later = await run({ ...proxy, async: true, callbackUrl: `${fake.url}/callback` });
    expect(later.body.metadata.async).toBe(true);
    expect(await naming('async', later)).toBe(later.body.metadata.workflowId);

    const unknown = await run({ automationType: 'slack', nodeParams: { action: 'no_such_action', params: {} } });
    expect([unknown.body.success, unknown.body.metadata?.workflowId ?? null]).toEqual([false, null]);
    expect([unknown.headers.get('switchboard-workflow-id'), unknown.headers.get('link')]).toEqual([null, null]);
  });
});
