import { createConnection } from '../../src/connections/store';
import type { ConnectionKind } from '../../src/integrations/define';
import { listIntegrations } from '../../src/integrations/registry';
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
  params: Record<string, unknown>;
  route: [string, string];
  /** The Teams webhook is served by the second fake. */
  onHooks?: boolean;
  answer: { status: number; body?: unknown; headers?: Record<string, string> };
  expect: (req: RecordedRequest, requestId: string) => void | Promise<void>;
  data: Record<string, unknown>;
}

/**
 * The workspace's connection to each integration. `WEBHOOK` becomes a second fake's address: a Teams Workflows webhook
 * lives on another origin than Graph, and credentials go only to the integration's own origin.
 */
const connections: Record<string, { kind: ConnectionKind; secrets: Record<string, string>; settings?: Record<string, string> }> = {
  twilio: { kind: 'basic', secrets: { auth_token: 'tok' }, settings: { account_sid: SID } },
  stripe: { kind: 'api_key', secrets: { api_key: 'sk_test_e2e' } },
  sendgrid: { kind: 'api_key', secrets: { api_key: 'SG.e2e' } },
  discord: { kind: 'api_key', secrets: { webhook_url: 'https://discord.com/api/webhooks/42/tok' } },
  gmail: { kind: 'oauth2', secrets: { access_token: 'ya29.e2e' } },
  microsoft_graph: { kind: 'oauth2', secrets: { access_token: 'eyJ.e2e' }, settings: { email: 'me@contoso.com' } },
  microsoft_teams: { kind: 'oauth2', secrets: { access_token: 'eyJ.teams', webhook_url: 'WEBHOOK/workflows/1/invoke?sig=s' } },
  telegram: { kind: 'api_key', secrets: { bot_token: '123:abc' } },
  whatsapp: { kind: 'api_key', secrets: { access_token: 'EAAG' }, settings: { phone_number_id: '1065' } },
  mailgun: { kind: 'api_key', secrets: { api_key: 'key-e2e' }, settings: { domain: 'mg.example.com' } },
  postmark: { kind: 'api_key', secrets: { server_token: 'pm-e2e' } },
};

/** Mailgun's multipart fields as the server reads them (to/o:tag repeat, so they are arrays). */
async function mailgunFields(req: RecordedRequest): Promise<Record<string, unknown>> {
  const form = await new Response(req.rawBody, { headers: { 'content-type': req.headers['content-type']! } }).formData();
  // forEach, not keys(): with the DOM lib in the program (puppeteer's types), FormData has no iterators.
  const keys = new Set<string>();
  form.forEach((_value, key) => keys.add(key));
  return Object.fromEntries([...keys].map((k) => [k, k === 'to' ? form.getAll(k) : form.get(k)]));
}

const cases: Case[] = [
  {
    automationType: 'twilio',
    action: 'send_sms',
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
    params: { to: [{ email: 'ada@example.com' }], from: { email: 'agent@example.org' }, subject: 'Summary', text: 'Thanks' },
    route: ['POST', '/v3/mail/send'],
    answer: { status: 202, headers: { 'x-message-id': 'm-1' } },
    expect: (req) => expect(vendorSpec('sendgrid.json')(req)).toEqual([]),
    data: { accepted: true, messageId: 'm-1' },
  },
  {
    automationType: 'discord',
    action: 'send_message',
    params: { content: 'Call finished' },
    route: ['POST', '/api/v10/webhooks/42/tok'],
    answer: { status: 200, body: { id: '1', channel_id: '2' } },
    expect: (req) => expect(vendorSpec('discord.json')(req)).toEqual([]),
    data: { id: '1', channel_id: '2' },
  },
  {
    automationType: 'gmail',
    action: 'send_email',
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
    params: { subject: 'Demo', start: '2026-12-01T10:00:00', end: '2026-12-01T10:30:00' },
    route: ['POST', '/v1.0/me/events'],
    answer: { status: 201, body: { id: 'AAMk', webLink: null } },
    expect: (req, requestId) => expect(req.body).toMatchObject({ subject: 'Demo', transactionId: requestId }),
    data: { id: 'AAMk' },
  },
  {
    automationType: 'microsoft_graph',
    action: 'send_email',
    params: { to: ['ada@example.com'], subject: 'Summary', body: 'Thanks' },
    route: ['POST', '/v1.0/me/sendMail'],
    answer: { status: 202 },
    expect: (req) => expect(req.body).toEqual({ message: { subject: 'Summary', body: { contentType: 'Text', content: 'Thanks' }, toRecipients: [{ emailAddress: { address: 'ada@example.com' } }] }, saveToSentItems: true }),
    data: { accepted: true },
  },
  {
    automationType: 'microsoft_graph',
    action: 'find_free_slots',
    params: { from: '2026-12-01T09:00:00Z', to: '2026-12-01T10:00:00Z', durationMinutes: 30, maxSlots: 1 },
    route: ['POST', '/v1.0/me/calendar/getSchedule'],
    answer: { status: 200, body: { value: [{ scheduleId: 'me@contoso.com', scheduleItems: [{ status: 'busy', start: { dateTime: '2026-12-01T09:00:00' }, end: { dateTime: '2026-12-01T09:15:00' } }] }] } },
    expect: (req) => expect(req.body).toMatchObject({ schedules: ['me@contoso.com'] }),
    data: { slots: [{ start: '2026-12-01T09:15:00.000Z', end: '2026-12-01T09:45:00.000Z' }], busy: 1 },
  },
  {
    automationType: 'microsoft_teams',
    action: 'post_message',
    params: { teamId: 'team-1', channelId: '19:abc@thread.tacv2', content: 'New lead' },
    route: ['POST', `/v1.0/teams/team-1/channels/${encodeURIComponent('19:abc@thread.tacv2')}/messages`],
    answer: { status: 201, body: { id: 'm1', webUrl: null } },
    expect: (req) => {
      expect(req.headers.authorization).toBe('Bearer eyJ.teams');
      expect(req.body).toEqual({ body: { contentType: 'text', content: 'New lead' } });
    },
    data: { id: 'm1' },
  },
  {
    automationType: 'microsoft_teams',
    action: 'send_chat_message',
    params: { chatId: '19:chat@thread.v2', content: 'Hello' },
    route: ['POST', `/v1.0/chats/${encodeURIComponent('19:chat@thread.v2')}/messages`],
    answer: { status: 201, body: { id: 'm2' } },
    expect: (req) => expect(req.body).toEqual({ body: { contentType: 'text', content: 'Hello' } }),
    data: { id: 'm2', webUrl: null },
  },
  {
    automationType: 'microsoft_teams',
    action: 'post_webhook',
    params: { text: 'Call finished' },
    route: ['POST', '/workflows/1/invoke'],
    onHooks: true,
    answer: { status: 202 },
    expect: (req) => {
      expect(req.query).toEqual({ sig: 's' });
      expect(req.headers.authorization).toBeUndefined();
      expect(req.body).toMatchObject({ type: 'message', attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', content: { type: 'AdaptiveCard', body: [{ type: 'TextBlock', text: 'Call finished', wrap: true }] } }] });
    },
    data: { accepted: true },
  },
  {
    automationType: 'telegram',
    action: 'send_message',
    params: { chat_id: 12345, text: 'Call finished' },
    route: ['POST', '/bot123:abc/sendMessage'],
    answer: { status: 200, body: { ok: true, result: { message_id: 7, chat: { id: 12345 }, date: 1763900000 } } },
    expect: (req) => expect(req.body).toEqual({ chat_id: 12345, text: 'Call finished' }),
    data: { message_id: 7, chat_id: 12345 },
  },
  {
    automationType: 'whatsapp',
    action: 'send_template',
    params: { to: '+14155550100', name: 'reminder', bodyParameters: ['Ada'] },
    route: ['POST', '/v23.0/1065/messages'],
    answer: { status: 200, body: { messaging_product: 'whatsapp', contacts: [{ wa_id: '14155550100' }], messages: [{ id: 'wamid.1' }] } },
    expect: (req) => {
      expect(req.headers.authorization).toBe('Bearer EAAG');
      expect(req.body).toEqual({ messaging_product: 'whatsapp', recipient_type: 'individual', to: '14155550100', type: 'template', template: { name: 'reminder', language: { policy: 'deterministic', code: 'en_US' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ada' }] }] } });
      expect(vendorSpec('whatsapp.json')(req)).toEqual([]);
    },
    data: { messageId: 'wamid.1', waId: '14155550100' },
  },
  {
    automationType: 'whatsapp',
    action: 'send_text',
    params: { to: '+14155550100', body: 'See you' },
    route: ['POST', '/v23.0/1065/messages'],
    answer: { status: 200, body: { messaging_product: 'whatsapp', messages: [{ id: 'wamid.2' }] } },
    expect: (req) => expect(req.body).toEqual({ messaging_product: 'whatsapp', recipient_type: 'individual', to: '14155550100', type: 'text', text: { body: 'See you' } }),
    data: { messageId: 'wamid.2', waId: null },
  },
  {
    automationType: 'twilio',
    action: 'send_whatsapp',
    params: { to: '+14155550100', from: '+14155550199', body: 'See you' },
    route: ['POST', `/2010-04-01/Accounts/${SID}/Messages.json`],
    answer: { status: 201, body: { sid: 'SM9', status: 'queued', to: 'whatsapp:+14155550100' } },
    expect: (req, requestId) => {
      expect(req.headers['i-twilio-idempotency-token']).toBe(requestId);
      expect(req.body).toEqual({ To: 'whatsapp:+14155550100', From: 'whatsapp:+14155550199', Body: 'See you' });
      expect(vendorSpec('twilio.json')(req)).toEqual([]);
    },
    data: { sid: 'SM9' },
  },
  {
    automationType: 'sendgrid',
    action: 'upsert_contact',
    params: { email: 'ada@example.com', custom_fields: { e1_T: 'inbound' } },
    route: ['PUT', '/v3/marketing/contacts'],
    answer: { status: 202, body: { job_id: 'job-1' } },
    expect: (req) => expect(req.body).toEqual({ contacts: [{ email: 'ada@example.com', custom_fields: { e1_T: 'inbound' } }] }),
    data: { jobId: 'job-1' },
  },
  {
    automationType: 'mailgun',
    action: 'send_email',
    params: { from: 'a@mg.example.com', to: ['ada@example.com'], subject: 'Summary', text: 'Thanks' },
    route: ['POST', '/v3/mg.example.com/messages'],
    answer: { status: 200, body: { id: '<1@mg.example.com>', message: 'Queued. Thank you.' } },
    expect: async (req) => {
      const body = await mailgunFields(req);
      expect(body).toEqual({ from: 'a@mg.example.com', to: ['ada@example.com'], subject: 'Summary', text: 'Thanks' });
      expect(vendorSpec('mailgun.json')({ ...req, body })).toEqual([]);
    },
    data: { id: '<1@mg.example.com>' },
  },
  {
    automationType: 'postmark',
    action: 'send_template',
    params: { from: 'a@example.org', to: ['ada@example.com'], templateId: 77, model: { name: 'Ada' } },
    route: ['POST', '/email/withTemplate'],
    answer: { status: 200, body: { To: 'ada@example.com', SubmittedAt: '2026-11-23T10:00:00Z', MessageID: 'pm-1', ErrorCode: 0, Message: 'OK' } },
    expect: (req) => expect(req.body).toEqual({ From: 'a@example.org', To: 'ada@example.com', TemplateId: 77, TemplateModel: { name: 'Ada' } }),
    data: { messageId: 'pm-1' },
  },
  {
    automationType: 'postmark',
    action: 'send_email',
    params: { from: 'a@example.org', to: ['ada@example.com'], subject: 's', html: '<b>t</b>' },
    route: ['POST', '/email'],
    answer: { status: 200, body: { To: 'ada@example.com', SubmittedAt: '2026-11-23T10:00:00Z', MessageID: 'pm-2', ErrorCode: 0, Message: 'OK' } },
    expect: (req) => expect(req.body).toEqual({ From: 'a@example.org', To: 'ada@example.com', Subject: 's', HtmlBody: '<b>t</b>' }),
    data: { messageId: 'pm-2' },
  },
  {
    automationType: 'stripe',
    action: 'create_payment_link',
    params: { lineItems: [{ price: 'price_1', quantity: 1 }] },
    route: ['POST', '/v1/payment_links'],
    answer: { status: 200, body: { id: 'plink_1', url: 'https://buy.stripe.com/x', active: true } },
    expect: (req, requestId) => {
      expect(req.headers['idempotency-key']).toBe(requestId);
      expect(req.body).toEqual({ 'line_items[0][price]': 'price_1', 'line_items[0][quantity]': '1' });
    },
    data: { url: 'https://buy.stripe.com/x' },
  },
  {
    automationType: 'stripe',
    action: 'find_customers',
    params: { email: 'ada@example.com' },
    route: ['GET', '/v1/customers'],
    answer: { status: 200, body: { object: 'list', data: [{ id: 'cus_1', email: 'ada@example.com', name: null, phone: null, created: 1 }], has_more: false } },
    expect: (req) => expect(req.query).toEqual({ email: 'ada@example.com', limit: '10' }),
    data: { customers: [{ id: 'cus_1', email: 'ada@example.com', name: null, phone: null, created: 1 }], hasMore: false },
  },
];

describe('catalogue A (every action) through POST /api/automation/execute (superuser mode, workspace connections)', () => {
  let app: TestApp;
  let fake: VendorFake;
  let hooks: VendorFake;
  let ws: { workspaceId: string; superuserKey: string };
  const run = (body: unknown) => app.request('POST', EXECUTE, { body, headers: { 'x-key': ws.superuserKey } });

  beforeAll(async () => {
    fake = await startVendorFake();
    hooks = await startVendorFake();
    const bases = { twilio: fake.url, stripe: fake.url, sendgrid: fake.url, discord: `${fake.url}/api/v10`, gmail: fake.url, microsoft_graph: `${fake.url}/v1.0`, microsoft_teams: `${fake.url}/v1.0`, postmark: fake.url, telegram: fake.url, whatsapp: fake.url, mailgun: fake.url };
    app = await startTestApp({ workers: true, config: { SSRF_ALLOWLIST: '127.0.0.1/8', INTEGRATION_BASE_URLS: Object.entries(bases).map(([k, v]) => `${k}=${v}`).join(',') } });
    ws = await app.newWorkspace({ superuser: true });
    for (const [integration, c] of Object.entries(connections)) {
      const secrets = Object.fromEntries(Object.entries(c.secrets).map(([k, v]) => [k, v.replace('WEBHOOK', hooks.url)]));
      await createConnection(app.db, { workspaceId: ws.workspaceId, userId: null, integration, ...c, secrets });
    }
  });
  afterAll(async () => {
    await app?.close();
    await fake?.stop();
    await hooks?.stop();
  });
  beforeEach(() => {
    fake.clear();
    hooks.clear();
  });

  it.each(cases.map((c) => [`${c.automationType} ${c.action}`, c] as const))('%s sends the exact request once and answers success', async (_name, c) => {
    const vendor = c.onHooks ? hooks : fake;
    vendor.on(c.route[0], c.route[1], c.answer);
    const res = await run({ automationType: c.automationType, nodeId: 'n1', nodeParams: { action: c.action, params: c.params } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, automationType: c.automationType, data: c.data, metadata: { action: c.action, attempts: 1 } });
    const sent = vendor.received(c.route[0], c.route[1]);
    expect(sent).toHaveLength(1);
    await c.expect(sent[0]!, res.body.requestId);
  });

  it('resolves a custom field from callData before sending (twilio to)', async () => {
    fake.on('POST', `/2010-04-01/Accounts/${SID}/Messages.json`, { status: 201, body: { sid: 'SM2', status: 'queued', to: '+14155550111' } });
    const res = await run({ automationType: 'twilio', nodeParams: { action: 'send_sms', params: { to: 'caller_phone', from: '+14155550199', body: 'hi', customFields: [{ field: 'to', customFieldEnabled: true }] } }, callData: { fields: { caller_phone: '+14155550111' } } });
    expect(res.body).toMatchObject({ success: true, data: { sid: 'SM2' } });
    expect(fake.requests[0]!.body).toMatchObject({ To: '+14155550111' });
  });

  it('covers every catalogue-A action', () => {
    const keys = Object.keys(connections);
    const all = listIntegrations().filter((i) => keys.includes(i.key)).flatMap((i) => i.actions.map((a) => `${i.key}.${a.key}`));
    expect(all.filter((a) => !cases.some((c) => `${c.automationType}.${c.action}` === a))).toEqual([]);
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
