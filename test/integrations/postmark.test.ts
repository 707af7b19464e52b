import type { Connection } from '../../src/integrations/define';
import { runIntegrationAction } from '../../src/integrations/run';
import { startVendorFake, type VendorFake } from '../helpers/vendor-fake';

// Postmark publishes no machine-readable API description (see ../shared/vendor-apis/INDEX.md): exact requests only.
const connection: Connection = { id: 'c1', integration: 'postmark', kind: 'api_key', secrets: { server_token: 'pm-server-token' }, settings: {} };
const OK = { To: 'ada@example.com', SubmittedAt: '2026-11-23T10:00:00.000Z', MessageID: 'b7bc2f4a-e38e-4336-af7d-e6c392c2f817', ErrorCode: 0, Message: 'OK' };

describe('postmark', () => {
  let fake: VendorFake;
  const run = (action: string, params: unknown) =>
    runIntegrationAction({ action, integration: 'postmark', params, connection, idempotencyKey: 'req-1', baseUrls: { postmark: fake.url }, ssrfAllowlist: ['127.0.0.1/8'] });

  beforeAll(async () => {
    fake = await startVendorFake();
  });
  afterAll(() => fake.stop());
  beforeEach(() => fake.clear());

  it('send_email posts PascalCase fields with the server token header', async () => {
    fake.on('POST', '/email', { status: 200, body: OK });
    const out = await run('send_email', { from: 'Agent <agent@example.org>', to: ['ada@example.com', 'bob@example.com'], cc: ['ops@example.org'], subject: 'Summary', text: 'Thanks', html: '<b>Thanks</b>', tag: 'call', messageStream: 'outbound', metadata: { call: 'c9' } });
    expect(out).toEqual({ data: { messageId: OK.MessageID, submittedAt: OK.SubmittedAt, to: 'ada@example.com' }, attempts: 1, action: 'send_email' });
    const [req] = fake.requests;
    expect(req!.method).toBe('POST');
    expect(req!.headers['x-postmark-server-token']).toBe('pm-server-token');
    expect(req!.headers.authorization).toBeUndefined();
    expect(req!.headers.accept).toBe('application/json');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.body).toEqual({ From: 'Agent <agent@example.org>', To: 'ada@example.com, bob@example.com', Cc: 'ops@example.org', Tag: 'call', MessageStream: 'outbound', Metadata: { call: 'c9' }, Subject: 'Summary', TextBody: 'Thanks', HtmlBody: '<b>Thanks</b>' });
  });

  it('send_template posts the template alias and model', async () => {
    fake.on('POST', '/email/withTemplate', { status: 200, body: OK });
    await run('send_template', { from: 'agent@example.org', to: ['ada@example.com'], templateAlias: 'call-summary', model: { name: 'Ada' } });
    expect(fake.requests[0]!.path).toBe('/email/withTemplate');
    expect(fake.requests[0]!.body).toEqual({ From: 'agent@example.org', To: 'ada@example.com', TemplateAlias: 'call-summary', TemplateModel: { name: 'Ada' } });
  });

  it('a 200 whose ErrorCode is not 0 is a failure', async () => {
    fake.on('POST', '/email', { status: 200, body: { ErrorCode: 406, Message: 'You tried to send to a recipient that has been marked as inactive.' } });
    await expect(run('send_email', { from: 'a@example.org', to: ['gone@example.com'], subject: 's', text: 't' })).rejects.toMatchObject({ type: 'vendor_error_in_body', retryable: false, attempts: 1, message: expect.stringContaining('marked as inactive') });
  });

  it('surfaces Postmark\'s 422 message', async () => {
    fake.on('POST', '/email', { status: 422, body: { ErrorCode: 300, Message: "Invalid 'From' address: 'nobody'." } });
    await expect(run('send_email', { from: 'nobody', to: ['ada@example.com'], subject: 's', text: 't' })).rejects.toMatchObject({ type: 'vendor_rejected', attempts: 1, message: expect.stringContaining("Invalid 'From' address") });
  });

  it('refuses bad params with every problem and sends nothing', async () => {
    await expect(run('send_template', { from: 'a@example.org', to: ['b@example.com'], templateId: 5, templateAlias: 'x' })).rejects.toMatchObject({ type: 'invalid_params', problems: [expect.stringMatching(/^templateId: give exactly one/)] });
    await expect(run('send_email', { from: 'a@example.org', to: 'b@example.com', subject: 's' })).rejects.toMatchObject({ problems: expect.arrayContaining([expect.stringMatching(/^to:/)]) });
    expect(fake.requests).toHaveLength(0);
  });
});
