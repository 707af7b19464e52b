import type { Connection } from '../../src/integrations/define';
import { runIntegrationAction } from '../../src/integrations/run';
import { startVendorFake, type VendorFake } from '../helpers/vendor-fake';
import { vendorSpec } from '../helpers/vendor-spec';

const check = vendorSpec('gmail.json');
const connection: Connection = { id: 'c1', integration: 'gmail', kind: 'oauth2', secrets: { access_token: 'ya29.gmail' }, settings: {} };
const SEND = '/gmail/v1/users/me/messages/send';

/** The RFC 2822 message inside `raw`, with its headers unfolded. */
function decode(raw: string): { headers: Record<string, string>; text: string } {
  const text = Buffer.from(raw, 'base64url').toString('utf8');
  const [head] = text.split('\r\n\r\n');
  const headers: Record<string, string> = {};
  for (const line of head!.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const at = line.indexOf(':');
    headers[line.slice(0, at).toLowerCase()] = line.slice(at + 1).trim();
  }
  return { headers, text };
}

describe('gmail send_email', () => {
  let fake: VendorFake;
  const run = (params: unknown) =>
    runIntegrationAction({ integration: 'gmail', action: 'send_email', params, connection, idempotencyKey: 'req-1', baseUrls: { gmail: fake.url }, ssrfAllowlist: ['127.0.0.1/8'] });

  beforeAll(async () => {
    fake = await startVendorFake();
  });
  afterAll(() => fake.stop());
  beforeEach(() => fake.clear());

  it('sends a base64url RFC 2822 message as users.messages.send describes it', async () => {
    fake.on('POST', SEND, { status: 200, body: { id: '18c1', threadId: '18c0', labelIds: ['SENT'] } });
    const out = await run({ to: ['ada@example.com'], cc: ['ops@example.com'], bcc: ['audit@example.com'], replyTo: 'help@example.com', subject: 'Résumé of your call', text: 'Thanks for calling', html: '<p>Thanks for calling</p>', threadId: '18c0' });
    expect(out).toEqual({ data: { id: '18c1', threadId: '18c0' }, attempts: 1, action: 'send_email' });
    const [req] = fake.requests;
    expect(req!.headers.authorization).toBe('Bearer ya29.gmail');
    expect(req!.query).toEqual({});
    const body = req!.body as { raw: string; threadId: string };
    expect(Object.keys(body).sort()).toEqual(['raw', 'threadId']);
    expect(body.threadId).toBe('18c0');
    expect(body.raw).toMatch(/^[A-Za-z0-9_-]+$/);
    const mime = decode(body.raw);
    expect(mime.headers).toMatchObject({ to: 'ada@example.com', cc: 'ops@example.com', bcc: 'audit@example.com', 'reply-to': 'help@example.com', 'mime-version': '1.0' });
    expect(mime.headers.subject).toBe('=?UTF-8?Q?R=C3=A9sum=C3=A9_of_your_call?=');
    expect(mime.headers['content-type']).toMatch(/^multipart\/alternative/);
    expect(mime.text).toContain('Thanks for calling');
    expect(mime.text).toContain('<p>Thanks for calling</p>');
    expect(check(req!)).toEqual([]);
  });

  it('surfaces Google\'s 400 message', async () => {
    fake.on('POST', SEND, { status: 400, body: { error: { code: 400, message: 'Invalid To header', status: 'INVALID_ARGUMENT' } } });
    await expect(run({ to: ['ada@example.com'], subject: 's', text: 't' })).rejects.toMatchObject({ type: 'vendor_rejected', attempts: 1, message: expect.stringContaining('Invalid To header') });
  });

  it('refuses bad params with every problem and sends nothing', async () => {
    await expect(run({ to: ['nope'], subject: '' })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: expect.arrayContaining([expect.stringMatching(/^to\.0:/), expect.stringMatching(/^subject:/)]),
    });
    await expect(run({ to: ['ada@example.com'], subject: 's' })).rejects.toMatchObject({ problems: [expect.stringMatching(/^text: give text or html/)] });
    expect(fake.requests).toHaveLength(0);
  });

  it('the description check can fail: an unknown field is reported', () => {
    const body = { raw: 'eA', label: 'x' };
    expect(check({ method: 'POST', path: SEND, query: {}, headers: { 'content-type': 'application/json' }, rawBody: JSON.stringify(body), body }).join('\n')).toMatch(/label/);
  });
});
