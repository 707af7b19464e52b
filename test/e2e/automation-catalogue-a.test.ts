import { createConnection } from '../../src/connections/store';
import type { ConnectionKind } from '../../src/integrations/define';
import { startTestApp, type TestApp } from '../helpers/stack';
import { startVendorFake, type RecordedRequest, type VendorFake } from '../helpers/vendor-fake';
import { vendorSpec } from '../helpers/vendor-spec';

jest.setTimeout(180_000);

const EXECUTE = '/api/automation/execute';
const SID = 'AC0123456789abcdef0123456789abcdef';

/** One catalogue-A action run through the endpoint: the workspace connection, the call, and what the fake must see. */
interface Case {
  automationType: string;
  action: string;
  connection: { kind: ConnectionKind; secrets: Record<string, string>; settings?: Record<string, string> };
  params: Record<string, unknown>;
  route: [string, string];
  answer: { status: number; body?: unknown; headers?: Record<string, string> };
  expect: (req: RecordedRequest, requestId: string) => void;
  data: Record<string, unknown>;
}

const cases: Case[] = [
  {
    automationType: 'twilio',
    action: 'send_sms',
    connection: { kind: 'basic', secrets: { auth_token: 'tok' }, settings: { account_sid: SID } },
    params: { to: '+14155550100', from: '+14155550199', body: 'Booked for Tuesday' },
    route: ['POST', `/2010-04-01/Accounts/${SID}/Messages.json`],
    answer: { status: 201, body: { sid: 'SM1', status: 'queued', to: '+14155550100' } },
    expect: (req, requestId) => {
      expect(req.headers['i-twilio-idempotency-token']).toBe(requestId);
      expect(req.headers.authorization).toBe(`Basic ${Buffer.from(`${SID}:tok`).toString('base64')}`);
      expect(vendorSpec('twilio.json')(req)).toEqual([]);
    },
    data: { sid: 'SM1' },
  },
  {
    automationType: 'stripe',
    action: 'create_customer',
    connection: { kind: 'api_key', secrets: { api_key: 'sk_test_e2e' } },
    params: { email: 'ada@example.com', name: 'Ada' },
    route: ['POST', '/v1/customers'],
    answer: { status: 200, body: { id: 'cus_9', email: 'ada@example.com', livemode: false } },
    expect: (req, requestId) => {
      expect(req.headers['idempotency-key']).toBe(requestId);
      expect(req.body).toEqual({ email: 'ada@example.com', name: 'Ada' });
      expect(vendorSpec('stripe.json')(req)).toEqual([]);
    },
    data: { id: 'cus_9' },
  },
  {
    automationType: 'sendgrid',
    action: 'send_email',
    connection: { kind: 'api_key', secrets: { api_key: 'SG.e2e' } },
    params: { to: [{ email: 'ada@example.com' }], from: { email: 'agent@example.org' }, subject: 'Summary', text: 'Thanks' },
    route: ['POST', '/v3/mail/send'],
    answer: { status: 202, headers: { 'x-message-id': 'm-1' } },
    expect: (req) => expect(vendorSpec('sendgrid.json')(req)).toEqual([]),
    data: { accepted: true, messageId: 'm-1' },
  },
  {
    automationType: 'discord',
    action: 'send_message',
    connection: { kind: 'api_key', secrets: { webhook_url: 'https://discord.com/api/webhooks/42/tok' } },
    params: { content: 'Call finished' },
    route: ['POST', '/api/v10/webhooks/42/tok'],
    answer: { status: 200, body: { id: '1', channel_id: '2' } },
    expect: (req) => expect(vendorSpec('discord.json')(req)).toEqual([]),
    data: { id: '1', channel_id: '2' },
  },
  {
    automationType: 'gmail',
    action: 'send_email',
    connection: { kind: 'oauth2', secrets: { access_token: 'ya29.e2e' }, settings: {} },
    params: { to: ['ada@example.com'], subject: 'Summary', text: 'Thanks' },
    route: ['POST', '/gmail/v1/users/me/messages/send'],
    answer: { status: 200, body: { id: 'g1', threadId: 't1' } },
    expect: (req) => {
      expect(req.headers.authorization).toBe('Bearer ya29.e2e');
      expect(vendorSpec('gmail.json')(req)).toEqual([]);
    },
    data: { id: 'g1', threadId: 't1' },
  },
  {
    automationType: 'microsoft_graph',
    action: 'create_event',
    connection: { kind: 'oauth2', secrets: { access_token: 'eyJ.e2e' } },
    params: { subject: 'Demo', start: '2026-12-01T10:00:00', end: '2026-12-01T10:30:00' },
    route: ['POST', '/v1.0/me/events'],
    answer: { status: 201, body: { id: 'AAMk', webLink: null } },
    expect: (req, requestId) => expect(req.body).toMatchObject({ subject: 'Demo', transactionId: requestId }),
    data: { id: 'AAMk' },
  },
];

describe('catalogue A through POST /api/automation/execute (superuser mode, workspace connections)', () => {
  let app: TestApp;
  let fake: VendorFake;
  let ws: { workspaceId: string; superuserKey: string };
  const run = (body: unknown) => app.request('POST', EXECUTE, { body, headers: { 'x-key': ws.superuserKey } });

  beforeAll(async () => {
    fake = await startVendorFake();
    const bases = { twilio: fake.url, stripe: fake.url, sendgrid: fake.url, discord: `${fake.url}/api/v10`, gmail: fake.url, microsoft_graph: `${fake.url}/v1.0`, postmark: fake.url };
    app = await startTestApp({ workers: true, config: { SSRF_ALLOWLIST: '127.0.0.1/8', INTEGRATION_BASE_URLS: Object.entries(bases).map(([k, v]) => `${k}=${v}`).join(',') } });
    ws = await app.newWorkspace({ superuser: true });
    for (const c of cases) await createConnection(app.db, { workspaceId: ws.workspaceId, userId: null, integration: c.automationType, ...c.connection });
    await createConnection(app.db, { workspaceId: ws.workspaceId, userId: null, integration: 'postmark', kind: 'api_key', secrets: { server_token: 'pm-e2e' } });
  });
  afterAll(async () => {
    await app?.close();
    await fake?.stop();
  });
  beforeEach(() => fake.clear());

  it.each(cases.map((c) => [`${c.automationType} ${c.action}`, c] as const))('%s sends the exact request once and answers success', async (_name, c) => {
    fake.on(c.route[0], c.route[1], c.answer);
    const res = await run({ automationType: c.automationType, nodeId: 'n1', nodeParams: { action: c.action, params: c.params } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, automationType: c.automationType, data: c.data, metadata: { action: c.action, attempts: 1 } });
    const sent = fake.received(c.route[0], c.route[1]);
    expect(sent).toHaveLength(1);
    c.expect(sent[0]!, res.body.requestId);
  });

  it('resolves a custom field from callData before sending (twilio to)', async () => {
    fake.on('POST', `/2010-04-01/Accounts/${SID}/Messages.json`, { status: 201, body: { sid: 'SM2', status: 'queued', to: '+14155550111' } });
    const res = await run({ automationType: 'twilio', nodeParams: { action: 'send_sms', params: { to: 'caller_phone', from: '+14155550199', body: 'hi', customFields: [{ field: 'to', customFieldEnabled: true }] } }, callData: { fields: { caller_phone: '+14155550111' } } });
    expect(res.body).toMatchObject({ success: true, data: { sid: 'SM2' } });
    expect(fake.requests[0]!.body).toMatchObject({ To: '+14155550111' });
  });

  it('a Postmark 200 carrying an ErrorCode answers success:false with its message, sent once', async () => {
    fake.on('POST', '/email', { status: 200, body: { ErrorCode: 406, Message: 'Inactive recipient' } });
    const res = await run({ automationType: 'postmark', nodeParams: { action: 'send_email', params: { from: 'a@example.org', to: ['b@example.com'], subject: 's', text: 't' } } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: false, data: null, error: expect.stringContaining('Inactive recipient'), metadata: { errorType: 'vendor_error_in_body', attempts: 1 } });
    expect(fake.received('POST', '/email')).toHaveLength(1);
    expect(fake.requests[0]!.headers['x-postmark-server-token']).toBe('pm-e2e');
  });

  it('invalid params for a catalogue-A action answer success:false naming each field, sending nothing', async () => {
    const res = await run({ automationType: 'stripe', nodeParams: { action: 'create_payment_link', params: { lineItems: [{ price: 'nope', quantity: 0 }] } } });
    expect(res.body).toMatchObject({ success: false, metadata: { errorType: 'invalid_params', problems: expect.arrayContaining([expect.stringMatching(/^lineItems\.0\.price:/), expect.stringMatching(/^lineItems\.0\.quantity:/)]) } });
    expect(fake.requests).toHaveLength(0);
  });
});
