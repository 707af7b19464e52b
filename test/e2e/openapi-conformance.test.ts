import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { randomUUID } from 'node:crypto';
import { demoFlowGraph } from '../../src/cli/demo';
import { importFlow } from '../../src/chat/db/flows';
import { createAgent, createPhoneGroup } from '../../src/agents/db/agents';
import { callResult, phoneEnding, zoneInDaytime } from '../helpers/calls';
import { createUser } from '../../src/workspaces/db/users';
import { createConnection } from '../../src/connections/store';
import { importSteps, newPhone, rowsWhen } from '../helpers/journeys';
import { uniquePhone } from '../helpers/phones';
import { eventually } from '../helpers/webhook-receiver';
import { startTestApp, type HttpResult, type TestApp } from '../helpers/stack';

// Issue 9 §3: every answer a handler gives is documented, and its body matches the declared schema, so the
// document cannot drift from the handlers. Each route must be seen answering 200 at least once.
type Doc = { paths: Record<string, Record<string, Operation>>; components: { schemas: { Failure: object } } };
type Operation = {
  operationId: string;
  parameters?: { name: string; in: string; schema: object; example?: unknown }[];
  requestBody?: { content: { 'application/json': { schema: object; example?: unknown } } };
  responses: Record<
    string,
    {
      content?: Record<string, { schema: object }>;
      headers?: Record<string, { required?: boolean; schema: object }>;
      links?: Record<string, { operationId: string }>;
    }
  >;
};

let app: TestApp;
let doc: Doc;
let ws: { workspaceId: string; apiKey: string; superuserKey?: string };
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const seen = new Set<string>();

beforeAll(async () => {
  app = await startTestApp({ workers: true, simulator: true });
  ws = await app.newWorkspace({ superuser: true });
  doc = (await app.request('GET', '/v1/openapi.json')).body as Doc;
});
afterAll(() => app.close());

/** Inlines the shared Failure schema so each response schema compiles on its own. */
const inline = (schema: object): object =>
  JSON.parse(JSON.stringify(schema).replaceAll('{"$ref":"#/components/schemas/Failure"}', JSON.stringify(doc.components.schemas.Failure)));

function conforms(method: string, path: string, res: HttpResult): void {
  const op = doc.paths[path]?.[method.toLowerCase()];
  const what = `${method} ${path} → ${res.status}`;
  expect([what, op !== undefined]).toEqual([what, true]);
  const declared = op!.responses[String(res.status)];
  expect([what, declared !== undefined ? 'documented' : `undocumented; documented: ${Object.keys(op!.responses).join(', ')}`]).toEqual([what, 'documented']);
  // The headers naming a run (issue 28): sent only where documented, required ones always, each matching its schema.
  const headers = declared!.headers ?? {};
  for (const name of ['Switchboard-Workflow-Id', 'Link']) {
    const value = res.headers.get(name);
    const header = headers[name];
    if (value !== null) expect([what, name, header !== undefined && ajv.validate(header.schema, value)]).toEqual([what, name, true]);
    else expect([what, name, header?.required ? 'missing' : 'absent']).toEqual([what, name, 'absent']);
  }
  const other = Object.keys(declared!.content ?? {}).find((type) => type !== 'application/json');
  if (other) {
    // A page or a script: its media type and a text body.
    expect([what, res.headers.get('content-type')?.split(';')[0], typeof res.body]).toEqual([what, other, 'string']);
    if (answered(op!, res.status)) seen.add(`${method} ${path}`);
    return;
  }
  const schema = declared!.content?.['application/json']?.schema;
  expect([what, schema !== undefined]).toEqual([what, true]);
  const validate = ajv.compile(inline(schema!));
  const ok = validate(res.body);
  expect([what, ok ? 'conforms' : ajv.errorsText(validate.errors)]).toEqual([what, 'conforms']);
  if (answered(op!, res.status)) seen.add(`${method} ${path}`);
}

/** A success: 200 or 202, or the 302 of an operation whose success is a redirect (it documents no 200). */
const answered = (op: { responses: Record<string, unknown> }, status: number) =>
  status === 200 || status === 202 || (status === 302 && op.responses['200'] === undefined);

async function call(
  method: string,
  path: string,
  o: { body?: unknown; query?: Record<string, string>; key?: string | null; headers?: Record<string, string>; params?: Record<string, string> } = {},
) {
  const qs = o.query ? `?${new URLSearchParams(o.query).toString()}` : '';
  const concrete = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(o.params?.[name] ?? ''));
  const res = await app.request(method, concrete + qs, { key: o.key === null ? undefined : (o.key ?? ws.apiKey), body: o.body, headers: o.headers });
  conforms(method, path, res);
  return res;
}

describe('the OpenAPI document against the handlers', () => {
  it('every answer of every route is documented and matches its declared schema', async () => {
    const { id: journeyId } = await importSteps(app, ws.workspaceId, [
      { id: 'wait', kind: 'wait', duration: 'PT1H' },
      { id: 'end', kind: 'end' },
    ]);
    await call('GET', '/v1/me');
    await call('GET', '/v1/me', { key: null });
    for (const path of ['/healthz', '/readyz', '/metrics', '/webchat/avatar.svg', '/favicon.ico', '/favicon.svg']) await call('GET', path, { key: null });
    await call('PUT', '/v1/lead/custom-fields', { body: { fields: [{ key: 'plan', label: 'Plan' }, { key: 'score' }] } });
    await call('PUT', '/v1/lead/custom-fields', { body: { fields: [{ key: 'phone' }] } });
    await call('GET', '/v1/lead/custom-fields');
    const csv = { 'content-type': 'text/csv' };
    const imported = await call('POST', '/v1/leads/import', {
      body: `phone,first_name,plan\n${newPhone()},Ann,gold\nnope,Bob,\n`,
      headers: csv,
      query: { tag: 'spring' },
    });
    await call('POST', '/v1/leads/import', { body: `phone\n"${newPhone()}"x\n`, headers: csv });
    await call('POST', '/v1/leads/import', { body: '{"phone": 1}', headers: { 'content-type': 'application/json' } });
    await call('POST', '/v1/leads/import', { body: `phone\n${newPhone()}\n`, headers: csv, query: { on_conflict: 'merge' } });
    await eventually(
      async () => (await app.request('GET', `/v1/leads/imports/${imported.body.import_id}`, { key: ws.apiKey })).body.status === 'completed',
      60_000,
      'the import',
    );
    await call('GET', '/v1/leads/imports/{id}', { params: { id: imported.body.import_id } });
    await call('GET', '/v1/leads/imports/{id}', { params: { id: randomUUID() } });
    await call('GET', '/v1/leads/imports', { query: { limit: '1' } });
    await call('GET', '/v1/leads/imports', { query: { cursor: 'x' } });

    const phone = newPhone();
    const created = await call('POST', '/v1/lead/create', { body: { phone, first_name: 'Ann', timezone: 'America/New_York', plan: 'gold', extra: 1 } });
    const leadId = created.body.lead_id as string;
    await call('POST', '/v1/lead/create', { body: { phone } });
    await call('POST', '/v1/lead/create', { body: { phone: 'not a phone' } });
    await call('POST', '/v1/lead/create', { body: '{', headers: { 'content-type': 'application/json' } });
    await call('POST', '/v1/lead/create', { body: 'phone=1', headers: { 'content-type': 'text/plain' } });
    await call('POST', '/v1/lead/create', { body: { phone: newPhone() }, headers: { 'idempotency-key': 'k1' } });
    await call('POST', '/v1/lead/create', { body: { phone: newPhone() }, headers: { 'idempotency-key': 'k1' } });

    await call('GET', '/v1/lead/get', { query: { lead_id: leadId } });
    await call('GET', '/v1/lead/get', { query: { phone } });
    await call('GET', '/v1/lead/get', { query: { lead_id: randomUUID() } });
    await call('GET', '/v1/lead/get', { query: {} });
    const page = await call('GET', '/v1/leads', { query: { limit: '1' } });
    await call('GET', '/v1/leads', { query: { tag: 'High_Priority', q: 'ann', cursor: page.body.next_cursor ?? '' } });
    await call('GET', '/v1/leads', { query: { limit: '0' } });
    await call('GET', '/v1/journeys', { query: { limit: '1' } });
    await call('GET', '/v1/journeys', { query: { cursor: 'x' } });
    for (const id of [journeyId, randomUUID()]) conforms('GET', '/v1/journeys/{id}', await app.request('GET', `/v1/journeys/${id}`, { key: ws.apiKey }));
    await call('POST', '/v1/journeys/{id}/preview', { params: { id: journeyId }, body: { lead_id: leadId, at: '2026-06-01T12:00:00Z' } });
    await call('POST', '/v1/journeys/{id}/preview', { params: { id: journeyId }, body: { record: { phone: newPhone() } } });
    await call('POST', '/v1/journeys/{id}/preview', { params: { id: randomUUID() }, body: { lead_id: leadId } });
    await call('POST', '/v1/journeys/{id}/preview', { params: { id: journeyId }, body: {} });
    await call('POST', '/v1/journeys', { body: { name: 'Imported', steps: [{ id: 'end', kind: 'end' }] } });
    await call('POST', '/v1/journeys', { body: { name: 'Imported', steps: [{ id: 'x', kind: 'nope' }] } });
    await call('POST', '/v1/journeys', {
      body: {
        id: (await importSteps(app, (await app.newWorkspace()).workspaceId, [{ id: 'end', kind: 'end' }])).id,
        name: 'x',
        steps: [{ id: 'end', kind: 'end' }],
      },
    });

    await call('PATCH', '/v1/lead/update', { body: { lead_id: leadId, company: 'Initech', plan: null } });
    await call('PATCH', '/v1/lead/update', { body: { lead_id: randomUUID(), company: 'x' } });
    await call('PATCH', '/v1/lead/tag', { body: { lead_id: leadId, tag: 'High_Priority' } });
    await call('PATCH', '/v1/lead/tag', { body: { lead_id: leadId, tag: 'no spaces' } });
    await call('DELETE', '/v1/lead/tag', { query: { lead_id: leadId, tag: 'High_Priority' } });
    await call('DELETE', '/v1/lead/tag', { query: { lead_id: randomUUID(), tag: 'x' } });

    await call('POST', '/v1/lead/sendtoworkflow', { body: { workflow_id: journeyId, lead_id: leadId } });
    await call('PATCH', '/v1/lead/sendtoworkflow', { body: { workflow_id: journeyId, record: { phone: newPhone(), first_name: 'Bo', nope: 1 } } });
    await call('POST', '/v1/lead/sendtoworkflow', { body: { workflow_id: journeyId } });
    await call('POST', '/v1/lead/sendtoworkflow', { body: { workflow_id: randomUUID(), lead_id: leadId } });
    await rowsWhen(app, leadId, (rows) => rows.length === 1, 'enrollment row');
    await call('GET', '/v1/lead/enrollments', { query: { lead_id: leadId } });
    await call('GET', '/v1/lead/enrollments', { query: { lead_id: randomUUID() } });
    await call('GET', '/v1/lead/enrollments', { query: {} });
    await call('POST', '/v1/lead/unenroll', { body: { workflow_id: journeyId, lead_id: leadId, reason: 'done' } });
    await rowsWhen(app, leadId, (rows) => rows[0]?.status === 'unenrolled', 'unenrolled');
    await call('POST', '/v1/lead/unenroll', { body: { workflow_id: journeyId, lead_id: leadId } });
    await call('POST', '/v1/lead/unenroll', { body: { workflow_id: journeyId, lead_id: leadId, reason: 'a\u0000b' } });
    await call('GET', '/v1/lead/enrollments', { query: { lead_id: leadId } });
    await call('GET', '/v1/journeys/webhook-secret');
    await call('GET', '/v1/journeys/webhook-secret', { key: ws.superuserKey });
    await call('POST', '/v1/journeys/webhook-secret/rotate', { body: { grace_period_seconds: 60 } });
    await call('POST', '/v1/journeys/webhook-secret/rotate', { key: ws.superuserKey, body: { grace_period_seconds: -1 } });
    await call('POST', '/v1/journeys/webhook-secret/rotate', { key: ws.superuserKey, body: { grace_period_seconds: 60 } });

    await app.db.query('UPDATE workspaces SET timezone = $2 WHERE id = $1', [ws.workspaceId, zoneInDaytime()]);
    const group = await createPhoneGroup(app.db, ws.workspaceId, { name: 'out', numbers: ['12125559002'] });
    const agent = (await createAgent(app.db, ws.workspaceId, { name: 'Ava', phoneGroupId: group.id })).id;
    await call('GET', '/v1/agents', { query: { limit: '1' } });
    await call('GET', '/v1/agents', { query: { cursor: 'x' } });
    for (const id of [agent, randomUUID()]) conforms('GET', '/v1/agents/{id}', await app.request('GET', `/v1/agents/${id}`, { key: ws.apiKey }));
    await call('GET', '/v1/phone-numbers', { query: { limit: '1' } });
    await call('GET', '/v1/phone-numbers', { query: { limit: '0' } });
    const made = await call('POST', '/v1/agents', { body: { name: 'Bo', numbers: [uniquePhone()], call_window: { start: '09:00', end: '17:00' } } });
    await call('POST', '/v1/agents', { body: { name: '' } });
    await call('PATCH', '/v1/agents/{id}', { params: { id: made.body.agent.id }, body: { name: 'Bo 2', transfer_number: null } });
    await call('PATCH', '/v1/agents/{id}', { params: { id: randomUUID() }, body: { name: 'x' } });
    await call('PATCH', '/v1/agents/{id}', { params: { id: made.body.agent.id }, body: { numbers: ['x'] } });
    const added = await call('POST', '/v1/phone-numbers', { body: { number: uniquePhone(), agent_id: agent } });
    await call('POST', '/v1/phone-numbers', { body: { number: added.body.phone_number.number } });
    await call('POST', '/v1/phone-numbers', { body: { number: 'x' } });
    await call('POST', '/v1/phone-numbers', { body: { number: uniquePhone(), agent_id: randomUUID() } });
    await call('PATCH', '/v1/phone-numbers/{number}', { params: { number: added.body.phone_number.id }, body: { agent_id: null } });
    await call('PATCH', '/v1/phone-numbers/{number}', { params: { number: randomUUID() }, body: { agent_id: null } });
    await call('PATCH', '/v1/phone-numbers/{number}', { params: { number: added.body.phone_number.id }, body: { agent_id: 'x' } });
    const placed = await call('POST', '/v1/agent', { body: { agent, phone: phoneEnding('0002'), request_data: { a: 1 } } });
    await call('POST', '/v1/agent', { body: { agent: randomUUID(), phone: phoneEnding('0001') } });
    await call('POST', '/v1/agent', { body: { agent, phone: 'x' } });
    const dnc = phoneEnding('0001');
    await app.db.query("INSERT INTO do_not_call (workspace_id, phone, reason) VALUES ($1, $2, 'asked')", [ws.workspaceId, dnc]);
    await call('POST', '/v1/agent', { body: { agent, phone: dnc } });
    await app.db.query('UPDATE workspaces SET max_concurrent_calls = 0 WHERE id = $1', [ws.workspaceId]);
    await call('POST', '/v1/agent', { body: { agent, phone: phoneEnding('0001') } });
    await app.db.query('UPDATE workspaces SET max_concurrent_calls = 10 WHERE id = $1', [ws.workspaceId]);
    await callResult(app, placed.body.call_id);
    await call('GET', '/v1/calls/get', { query: { call_id: placed.body.call_id } });
    await call('GET', '/v1/calls/get', { query: { call_id: randomUUID() } });
    await call('GET', '/v1/calls/get', { query: { call_id: 'x' } });
    await call('GET', '/v1/calls/{call_id}/transcript', { params: { call_id: placed.body.call_id } });
    await call('GET', '/v1/calls/{call_id}/transcript', { params: { call_id: randomUUID() } });
    const silent = await call('POST', '/v1/agent', { body: { agent, phone: phoneEnding('0007') } });
    await call('POST', '/v1/calls/cancel', { body: { call_id: silent.body.call_id } });
    await callResult(app, silent.body.call_id);
    await call('POST', '/v1/calls/cancel', { body: { call_id: silent.body.call_id } });
    await call('POST', '/v1/calls/cancel', { body: { call_id: randomUUID() } });

    await call('GET', '/v1/calls', { query: { limit: '5', status: 'completed' } });
    await call('GET', '/v1/calls', { query: { limit: '500' } });
    // A public IP literal: saved without a DNS lookup (nothing is sent until a call event).
    const sub = await call('POST', '/v1/calls/subscriptions', { body: { url: 'https://93.184.215.14/calls', events: ['call.completed'] } });
    await call('POST', '/v1/calls/subscriptions', { body: { url: 'http://10.0.0.1/calls' } });
    await call('GET', '/v1/calls/subscriptions');
    await call('DELETE', '/v1/calls/subscriptions', { query: { id: sub.body.subscription.id } });
    await call('DELETE', '/v1/calls/subscriptions', { query: { id: sub.body.subscription.id } });
    await call('DELETE', '/v1/calls/subscriptions', { query: { id: 'x' } });
    // Campaigns: one lead (a voicemail), window any time; a second campaign paused, resumed and canceled.
    const anyTime = { start: '00:00', end: '23:59' };
    const camp = await call('POST', '/v1/campaigns', { body: { name: 'Conformance', agent, audience: { lead_ids: [leadId] }, window: anyTime } });
    await call('POST', '/v1/campaigns', { body: { name: 'x', agent: randomUUID(), audience: { tag: 'x' } } });
    await call('POST', '/v1/campaigns', { body: { name: 'x', agent, audience: { tag: 'x' }, retry_on: ['busy'] } });
    await call('GET', '/v1/campaigns', { query: { limit: '1' } });
    await call('GET', '/v1/campaigns', { query: { cursor: 'x' } });
    await call('GET', '/v1/campaigns/{id}', { params: { id: camp.body.campaign_id } });
    await call('GET', '/v1/campaigns/{id}', { params: { id: randomUUID() } });
    await call('GET', '/v1/campaigns/{id}/calls', { params: { id: camp.body.campaign_id }, query: { limit: '10' } });
    await call('GET', '/v1/campaigns/{id}/calls', { params: { id: randomUUID() } });
    await call('GET', '/v1/campaigns/{id}/calls', { params: { id: camp.body.campaign_id }, query: { cursor: 'x' } });
    const later = await call('POST', '/v1/campaigns', { body: { name: 'Later', agent, audience: { tag: 'none' }, start_at: '2099-01-01T00:00:00Z' } });
    await call('POST', '/v1/campaigns/{id}/pause', { params: { id: later.body.campaign_id } });
    await call('POST', '/v1/campaigns/{id}/resume', { params: { id: later.body.campaign_id } });
    await call('POST', '/v1/campaigns/{id}/cancel', { params: { id: later.body.campaign_id } });
    await call('POST', '/v1/campaigns/{id}/pause', { params: { id: later.body.campaign_id } });
    for (const action of ['pause', 'resume', 'cancel']) await call('POST', `/v1/campaigns/{id}/${action}`, { params: { id: randomUUID() } });
    const email = `conformance-${randomUUID()}@example.com`;
    await createUser(app.db, ws.workspaceId, { email, password: 'pw-conformance' });
    await call('POST', '/api/auth/login', { key: null, body: { email, password: 'pw-conformance' } });
    await call('POST', '/api/auth/login', { key: null, body: { email, password: 'wrong' } });
    await call('POST', '/api/auth/login', { key: null, body: { email: 'not an email' } });
    // No-code option lists and REST hooks (a public IP literal: saved without a DNS lookup).
    const { id: triggerJourney } = await importSteps(app, ws.workspaceId, [{ id: 'handoff', kind: 'trigger', name: 'Hand off' }]);
    const creds = { user: email, password: 'pw-conformance' };
    for (const kind of ['workspaces', 'journeys', 'agents']) await call('POST', `/api/make-com/automation/options/${kind}`, { key: null, body: creds });
    await call('POST', '/api/make-com/automation/options/journeys', { body: { workspace_id: randomUUID() } });
    await call('POST', '/api/make-com/automation/options/nodes', { body: { journey_id: triggerJourney } });
    await call('POST', '/api/make-com/automation/options/nodes', { body: { journey_id: randomUUID() } });
    await call('POST', '/api/make-com/automation/options/nodes', { key: null, body: { ...creds, password: 'wrong', journey_id: triggerJourney } });
    await call('POST', '/api/make-com/automation/options/agents', { key: 'not-a-key', body: {} });
    const hook = { journey_id: triggerJourney, automation_node_id: 'handoff', webhook_url: 'https://93.184.215.14/hooks', platform: 'n8n' };
    await call('POST', '/api/make-com/automation/subscribe', { body: hook });
    await call('POST', '/api/make-com/automation/subscribe', { body: { ...hook, webhook_url: 'http://10.0.0.1/x' } });
    await call('POST', '/api/make-com/automation/subscribe', { body: { ...hook, journey_id: randomUUID() } });
    await call('DELETE', '/api/make-com/automation/unsubscribe', { body: { webhook_url: hook.webhook_url } });
    await call('DELETE', '/api/make-com/automation/unsubscribe', { body: { webhook_url: hook.webhook_url } });
    await call('DELETE', '/api/make-com/automation/unsubscribe', { body: {} });
    const v1hook = await call('POST', '/v1/hooks', { body: hook });
    await call('POST', '/v1/hooks', { body: { ...hook, automation_node_id: 'nope' } });
    await call('GET', '/v1/hooks', { query: { limit: '1' } });
    await call('GET', '/v1/hooks', { query: { cursor: 'x' } });
    await call('DELETE', '/v1/hooks', { query: { id: v1hook.body.hook_id } });
    await call('DELETE', '/v1/hooks', { query: { id: v1hook.body.hook_id } });
    // The automation routes (x-key superuser; proxy to an address the guard refuses: a failed action, still 200).
    const su = { key: null, headers: { 'x-key': ws.superuserKey! } };
    const ran = await call('POST', '/api/automation/execute', {
      ...su,
      body: { automationType: 'proxy', nodeParams: { params: { apiURL: 'http://10.0.0.1/x' } } },
    });
    await call('POST', '/api/automation/execute', { ...su, body: { automationType: 'proxy' } });
    await call('POST', '/api/automation/execute', { key: null, body: { automationType: 'proxy', nodeParams: {} } });
    await call('POST', '/api/automation/execute', { key: null, headers: { 'x-key': ws.apiKey }, body: { automationType: 'proxy', nodeParams: {} } });
    await call('GET', '/api/automation/integrations', su);
    await call('GET', '/api/automation/runs/{requestId}', { ...su, params: { requestId: ran.body.requestId } });
    await call('GET', '/api/automation/runs/{requestId}', { ...su, params: { requestId: 'nope' } });
    const flow = await importFlow(app.db, ws.workspaceId, { name: 'Chat', publicChat: true, ownerName: 'Ava', graph: demoFlowGraph });
    await call('POST', '/webchat/session', { key: null, body: { record: { phone: newPhone(), first_name: 'Ann' }, flow_id: flow.id } });
    await call('POST', '/webchat/session', { key: null, body: { record: { phone: 'not a phone' }, flow_id: flow.id } });
    await call('POST', '/webchat/session', { key: null, body: { record: { phone: newPhone() }, flow_id: randomUUID() } });
    await call('POST', '/webchat/session', { body: { record: { phone: newPhone() }, flow_id: flow.id } });
    await call('POST', '/webchat/session', { key: 'not-a-key', body: { record: { phone: newPhone() }, flow_id: flow.id } });
    const keyed = await call('POST', '/webchat/session', { body: { record: { phone: newPhone(), first_name: 'Cy' }, flow_id: flow.id } });
    await call('GET', '/v1/chat/sessions', { query: { limit: '1' } });
    await call('GET', '/v1/chat/sessions', { query: { lead_id: 'x' } });
    await call('GET', '/v1/chat/sessions/{session}/messages', { params: { session: keyed.body.session } });
    await call('GET', '/v1/chat/sessions/{session}/messages', { params: { session: 'nope' } });
    await call('GET', '/v1/chat/sessions/{session}/messages', { params: { session: keyed.body.session }, query: { cursor: 'x' } });
    await call('GET', '/webchat/widget.js', { key: null });
    conforms('GET', '/webchat/demo/{flowId}', await app.request('GET', `/webchat/demo/${flow.id}`));
    conforms('GET', '/webchat/demo/{flowId}', await app.request('GET', `/webchat/demo/${randomUUID()}`));

    // Connections and the OAuth flow (hubspot's client configured here; nothing reaches the vendor).
    app.config.oauthEnv = { OAUTH_HUBSPOT_CLIENT_ID: 'conformance-client', OAUTH_HUBSPOT_CLIENT_SECRET: 'conformance-secret' };
    app.config.OAUTH_RETURN_URLS = ['https://app.example.com/settings'];
    const { connection } = await createConnection(app.db, {
      workspaceId: ws.workspaceId,
      userId: null,
      integration: 'mailgun',
      kind: 'api_key',
      secrets: { api_key: 'k' },
    });
    await call('GET', '/v1/connections');
    await call('GET', '/v1/connections', { key: null });
    await call('GET', '/v1/connections/{id}', { params: { id: connection.id } });
    await call('GET', '/v1/connections/{id}', { params: { id: randomUUID() } });
    await call('GET', '/v1/connections/{id}', { params: { id: 'nope' } });
    await call('POST', '/v1/connections/{id}/test', { params: { id: connection.id } });
    await call('POST', '/v1/connections/{id}/test', { params: { id: randomUUID() } });
    const started = await call('GET', '/v1/connections/oauth/{integration}/start', { params: { integration: 'hubspot' }, query: { redirect: 'false' } });
    await call('GET', '/v1/connections/oauth/{integration}/start', { params: { integration: 'hubspot' }, query: { return_url: 'https://evil.example.com/' } });
    await call('GET', '/v1/connections/oauth/{integration}/start', { params: { integration: 'slack' } });
    const manual = async (path: string, headers: Record<string, string> = {}): Promise<HttpResult> => {
      const res = await fetch(app.url + path, { redirect: 'manual', headers });
      const text = await res.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // a page or plain text
      }
      return { status: res.status, body, headers: res.headers };
    };
    const redirected = await manual('/v1/connections/oauth/hubspot/start?return_url=https%3A%2F%2Fapp.example.com%2Fsettings', {
      authorization: `Bearer ${ws.apiKey}`,
    });
    conforms('GET', '/v1/connections/oauth/{integration}/start', redirected);
    const stateOf = (url: string) => new URL(url).searchParams.get('state')!;
    const linkPath = (url: string) => url.slice(url.indexOf('/v1/'));
    // The connect link: the first opening binds the browser (302 with its cookie), a second one is 400.
    const opened = await manual(linkPath(started.body.authorize_url));
    conforms('GET', '/v1/connections/oauth/begin', opened);
    conforms('GET', '/v1/connections/oauth/begin', await manual(linkPath(started.body.authorize_url)));
    const cookie = { cookie: opened.headers.getSetCookie()[0]!.split(';')[0]! };
    const redirectedOpened = await manual(linkPath(redirected.headers.get('location')!));
    const redirectedCookie = { cookie: redirectedOpened.headers.getSetCookie()[0]!.split(';')[0]! };
    const pageEnd = await manual(`/v1/connections/oauth/callback?state=${stateOf(started.body.authorize_url)}&error=access_denied`, cookie);
    conforms('GET', '/v1/connections/oauth/callback', pageEnd);
    conforms(
      'GET',
      '/v1/connections/oauth/callback',
      await manual(`/v1/connections/oauth/callback?state=${stateOf(redirected.headers.get('location')!)}&error=access_denied`, redirectedCookie),
    );
    conforms('GET', '/v1/connections/oauth/callback', await manual(`/v1/connections/oauth/callback?state=${stateOf(started.body.authorize_url)}&code=x`));
    // Another browser (no cookie): 403.
    const other = await call('GET', '/v1/connections/oauth/{integration}/start', { params: { integration: 'hubspot' }, query: { redirect: 'false' } });
    await manual(linkPath(other.body.authorize_url));
    conforms('GET', '/v1/connections/oauth/callback', await manual(`/v1/connections/oauth/callback?state=${stateOf(other.body.authorize_url)}&code=x`));
    await call('DELETE', '/v1/connections/{id}', { params: { id: connection.id } });
    await call('DELETE', '/v1/connections/{id}', { params: { id: connection.id } });

    const operations = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    expect(operations.filter((op) => !seen.has(op))).toEqual([]);
  });

  it('states that both Authorization and x-key at once is a 400 on every automation operation, and answers so (ST202)', async () => {
    const schemes = (doc as unknown as { components: { securitySchemes: Record<string, { description: string }> } }).components.securitySchemes;
    for (const name of ['userJwt', 'superuserKey'])
      expect(schemes[name]!.description).toMatch(/Both Authorization and x-key sent: send exactly one of them \(400\)/);
    const operations = Object.entries(doc.paths).filter(([path]) => path.startsWith('/api/automation/'));
    expect(operations.map(([path]) => path).sort()).toEqual(['/api/automation/execute', '/api/automation/integrations', '/api/automation/runs/{requestId}']);
    for (const [path, ops] of operations) {
      for (const [method, op] of Object.entries(ops)) {
        expect([method, path, (op.responses['400'] as { description?: string })?.description]).toEqual([
          method,
          path,
          expect.stringMatching(/^Both Authorization and x-key sent/),
        ]);
        const body = method === 'post' ? { automationType: 'proxy', nodeParams: { params: {} } } : undefined;
        const res = await call(method.toUpperCase(), path, {
          body,
          headers: { 'x-key': ws.apiKey },
          params: { requestId: '3f2b8c4e-9a61-4d2f-b7e3-5c1a0d9e8f47' },
        });
        expect([path, res.status, res.body.error]).toEqual([path, 400, expect.stringMatching(/not both/)]);
      }
    }
  });

  it('every request example is valid by its own schema, and links name real operations', () => {
    const ids = new Set(Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((op) => op.operationId)));
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const body = op.requestBody?.content['application/json'];
        if (body) {
          expect([method, path, 'body example', body.example !== undefined && ajv.validate(body.schema, body.example)]).toEqual([
            method,
            path,
            'body example',
            true,
          ]);
        }
        for (const p of op.parameters ?? []) {
          if (p.in === 'header') continue;
          expect([method, path, p.name, p.example !== undefined && ajv.validate(p.schema, p.example)]).toEqual([method, path, p.name, true]);
        }
        for (const link of Object.values(op.responses['200']?.links ?? {})) expect(ids).toContain(link.operationId);
      }
    }
  });
});
