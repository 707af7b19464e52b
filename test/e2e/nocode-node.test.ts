// Plays a no-code node's whole sequence against the running stack, as the live platform's community clients send it
// (shapes from the reference, "No-code platforms"): dropdowns from the option lists, a lead found by three phone
// variants at once, updated, enrolled by lead_id, tagged and untagged, a call with a `from` from the numbers list, and
// a REST hook on a journey's trigger step that receives one signed POST and nothing once unsubscribed.
import { randomBytes } from 'node:crypto';
import { createUser } from '../../src/workspaces/db/users';
import { journeyTriggerWorkflowId } from '../../src/temporal/ids';
import { callResult, zoneInDaytime, phoneEnding } from '../helpers/calls';
import { finished, importSteps, newPhone } from '../helpers/journeys';
import { uniquePhone } from '../helpers/phones';
import { startTestApp, type TestApp } from '../helpers/stack';
import { verifySignature, WebhookReceiver } from '../helpers/webhook-receiver';

jest.setTimeout(180_000);

let app: TestApp;
const receiver = new WebhookReceiver();
let hooks: string;
beforeAll(async () => {
  app = await startTestApp({ workers: true, simulator: true, config: { SSRF_ALLOWLIST: '127.0.0.1/8' } });
  hooks = await receiver.start();
});
afterAll(async () => {
  await receiver.close();
  await app.close();
});

/** What the operator set up beforehand (CLI and API): a user, an agent with a number, a journey with a trigger step. */
async function operatorSetup() {
  const ws = await app.newWorkspace({ superuser: true });
  await app.db.query('UPDATE workspaces SET timezone = $2 WHERE id = $1', [ws.workspaceId, zoneInDaytime()]);
  const user = { user: `n8n-${randomBytes(5).toString('hex')}@example.com`, password: `pw-${randomBytes(8).toString('hex')}` };
  await createUser(app.db, ws.workspaceId, { email: user.user, password: user.password });
  const agent = await app.request('POST', '/v1/agents', { key: ws.apiKey, body: { name: 'Ava', numbers: [uniquePhone()] } });
  expect(agent.status).toBe(200);
  const journey = await importSteps(app, ws.workspaceId, [
    { id: 'welcome', kind: 'tag', tag: 'journey_started' },
    { id: 'crm', kind: 'trigger', name: 'Send to CRM' },
    { id: 'stop', kind: 'end' },
  ]);
  receiver.secret = (await app.request('GET', '/v1/journeys/webhook-secret', { key: ws.superuserKey })).body.webhook_secret;
  return { ...ws, user, journeyId: journey.id, agentId: agent.body.agent.id as string };
}

/** The node's client: the REST base (…/v1, API key as Bearer) and the integrations host (…/api). */
function nodeClient(apiKey: string, user: { user: string; password: string }) {
  const v1 = (method: string, path: string, body?: unknown) => app.request(method, `/v1${path}`, { key: apiKey, body });
  const options = async (kind: string, extra: Record<string, string> = {}) => {
    const res = await app.request('POST', `/api/make-com/automation/options/${kind}`, { body: { ...user, ...extra } });
    expect([kind, res.status]).toEqual([kind, 200]);
    return res.body.items as { label: string; value: string }[];
  };
  /** Lookups try the phone as typed, without a leading +, and digits only, at once; 404 means no lead. */
  const findByPhone = async (typed: string) => {
    const variants = [...new Set([typed, typed.replace(/^\+/, ''), typed.replace(/\D/g, '')])];
    const answers = await Promise.all(variants.map((p) => v1('GET', `/lead/get?phone=${encodeURIComponent(p)}`)));
    for (const a of answers) expect([200, 404]).toContain(a.status);
    const found = answers.filter((a) => a.status === 200).map((a) => a.body.lead_id as string);
    expect(new Set(found).size).toBeLessThanOrEqual(1);
    return { leadId: found[0], variants: variants.length, hits: found.length };
  };
  const hookApi = (method: string, path: string, body: unknown) =>
    app.request(method, `/api/make-com/automation/${path}`, { body, headers: { authorization: `Bearer ${apiKey}` } });
  return { v1, options, findByPhone, hookApi };
}

describe('a no-code node against the running stack', () => {
  it('fills its dropdowns, finds, updates, enrolls, tags and calls a lead, and receives a trigger once per subscription', async () => {
    const op = await operatorSetup();
    const node = nodeClient(op.apiKey, op.user);

    // Dropdowns: workspace → journey → trigger step, and the agent.
    const [workspace] = await node.options('workspaces');
    expect(workspace!.value).toBe(op.workspaceId);
    const journey = (await node.options('journeys', { workspace_id: workspace!.value })).find((j) => j.value === op.journeyId);
    expect(journey).toBeDefined();
    expect(await node.options('nodes', { journey_id: journey!.value })).toEqual([{ label: 'Send to CRM', value: 'crm' }]);
    expect(await node.options('agents', { workspace_id: workspace!.value })).toEqual([{ label: 'Ava', value: op.agentId }]);

    // "Send to journey": find by phone (three variants at once) → update → enroll by lead_id.
    const national = newPhone();
    const typed = `+1 (${national.slice(0, 3)}) ${national.slice(3, 6)}-${national.slice(6)}`;
    expect((await node.findByPhone(typed)).leadId).toBeUndefined();
    const created = await node.v1('POST', '/lead/create', { phone: typed, first_name: 'Grace' });
    expect(created.status).toBe(200);
    const lookup = await node.findByPhone(typed);
    expect(lookup).toEqual({ leadId: created.body.lead_id, variants: 3, hits: 3 });
    const leadId = lookup.leadId!;
    expect((await node.v1('GET', `/leads?phone=1${national}`)).body.leads.map((l: { lead_id: string }) => l.lead_id)).toEqual([leadId]);
    const updated = await node.v1('PATCH', '/lead/update', { lead_id: leadId, company: 'Acme' });
    expect([updated.status, updated.body.status]).toEqual([200, 'success']);
    const enrolled = await node.v1('POST', '/lead/sendtoworkflow', { workflow_id: journey!.value, lead_id: leadId });
    expect(enrolled.body).toEqual({ status: 'success', lead_id: leadId, workflow_assigned: true, message: 'Lead successfully added to workflow' });
    // Nobody is subscribed yet: this run passes the trigger step without a delivery.
    expect((await finished(app, op.journeyId, leadId)).history.find((h) => h.step_id === 'crm')!.detail).toMatch(/no subscribers$/);

    // Tags.
    expect((await node.v1('PATCH', '/lead/tag', { lead_id: leadId, tag: 'High_Priority' })).status).toBe(200);
    expect((await node.v1('GET', `/lead/get?lead_id=${leadId}`)).body).toMatchObject({
      company: 'Acme',
      tags: expect.arrayContaining(['High_Priority', 'journey_started']),
    });
    expect((await node.v1('DELETE', `/lead/tag?lead_id=${leadId}&tag=High_Priority`)).status).toBe(200);
    expect((await node.v1('GET', `/lead/get?lead_id=${leadId}`)).body.tags).not.toContain('High_Priority');

    // A call with a `from` the numbers list offers for the chosen agent.
    const numbers = (await node.v1('GET', '/phone-numbers')).body.phone_numbers as { number: string; agent_id: string | null }[];
    const from = numbers.find((n) => n.agent_id === op.agentId)!.number;
    const call = await node.v1('POST', '/agent', { agent: op.agentId, phone: phoneEnding('0002'), from });
    expect(call.status).toBe(200);
    expect(call.body).toMatchObject({ call_id: expect.any(String), from, agent: op.agentId });
    expect((await callResult(app, call.body.call_id)).outcome).toBe('voicemail');

    // The trigger: subscribe, enroll a lead (the record form), receive one signed POST.
    const webhookUrl = `${hooks}/n8n-${randomBytes(4).toString('hex')}`;
    const path = new URL(webhookUrl).pathname;
    const sub = await node.hookApi('POST', 'subscribe', { journey_id: journey!.value, automation_node_id: 'crm', webhook_url: webhookUrl, platform: 'n8n' });
    expect(sub.status).toBe(200);
    const second = await node.v1('POST', '/lead/sendtoworkflow', { workflow_id: journey!.value, record: { phone: newPhone(), first_name: 'Ada' } });
    const run = await finished(app, op.journeyId, second.body.lead_id);
    const eventId = /^event (\S+)$/.exec(run.history.find((h) => h.step_id === 'crm')!.detail!)![1]!;
    await app.temporal.client.workflow.getHandle(journeyTriggerWorkflowId(eventId)).result();
    const got = receiver.on(path);
    expect(got).toHaveLength(1);
    expect(verifySignature(receiver.secret, got[0]!.signature, got[0]!.body)).toBe(true);
    expect(JSON.parse(got[0]!.body)).toMatchObject({
      event_id: eventId,
      account_id: op.workspaceId,
      accountId: op.workspaceId,
      journey_id: op.journeyId,
      step_id: 'crm',
      lead_id: second.body.lead_id,
      lead: { first_name: 'Ada' },
    });

    // Unsubscribe by URL, enroll another: nothing arrives.
    expect((await node.hookApi('DELETE', 'unsubscribe', { webhook_url: webhookUrl })).body).toEqual({
      status: 'success',
      hook_ids: [sub.body.hook_id],
      message: 'Hook deleted',
    });
    const third = await node.v1('POST', '/lead/sendtoworkflow', { workflow_id: journey!.value, record: { phone: newPhone() } });
    expect((await finished(app, op.journeyId, third.body.lead_id)).history.find((h) => h.step_id === 'crm')!.detail).toMatch(/no subscribers$/);
    expect(receiver.on(path)).toHaveLength(1);
  });
});
