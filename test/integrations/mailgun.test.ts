import type { Connection } from '../../src/integrations/define';
import mailgun from '../../src/integrations/mailgun';
import { vendorFakeRunner } from '../helpers/integration-harness';
import type { RecordedRequest } from '../helpers/vendor-fake';
import { vendorSpec } from '../helpers/vendor-spec';

const spec = vendorSpec('mailgun.json');
const connection: Connection = { id: 'c1', integration: 'mailgun', kind: 'api_key', secrets: { api_key: 'key-test' }, settings: { domain: 'mg.example.com' } };
const ARRAYS = new Set(['to', 'cc', 'bcc', 'o:tag']);

/** The multipart fields as the server reads them (the description types to/cc/bcc/o:tag as arrays, repeated fields). */
async function fields(req: RecordedRequest): Promise<Record<string, string | string[]>> {
  const form = await new Response(req.rawBody, { headers: { 'content-type': req.headers['content-type']! } }).formData();
  const out: Record<string, string | string[]> = {};
  // forEach, not keys(): with the DOM lib in the program (puppeteer's types), FormData has no iterators.
  const keys = new Set<string>();
  form.forEach((_value, key) => keys.add(key));
  for (const key of keys) out[key] = ARRAYS.has(key) ? (form.getAll(key) as string[]) : (form.get(key) as string);
  return out;
}

describe('mailgun send_email', () => {
  const h = vendorFakeRunner('mailgun', connection, 'req-1');
  const sleeps = h.waits;
  const run = (params: unknown) => h.run('send_email', params);

  it('posts multipart form data to the connection\'s domain with Basic api:key, as Mailgun describes it', async () => {
    h.fake.on('POST', '/v3/mg.example.com/messages', { status: 200, body: { id: '<20261123.1@mg.example.com>', message: 'Queued. Thank you.' } });
    const out = await run({ from: 'Agent <agent@mg.example.com>', to: ['ada@example.com', 'Bob <bob@example.com>'], subject: 'Summary', text: 'Thanks', html: '<b>Thanks</b>', tags: ['call'], variables: { name: 'Ada' }, template: 'summary', replyTo: 'help@example.com' });
    expect(out).toEqual({ data: { id: '<20261123.1@mg.example.com>', message: 'Queued. Thank you.' }, attempts: 1, action: 'send_email' });
    const [req] = h.fake.requests;
    expect(req!.headers.authorization).toBe(`Basic ${Buffer.from('api:key-test').toString('base64')}`);
    expect(req!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const body = await fields(req!);
    expect(body).toEqual({ from: 'Agent <agent@mg.example.com>', to: ['ada@example.com', 'Bob <bob@example.com>'], subject: 'Summary', text: 'Thanks', html: '<b>Thanks</b>', template: 'summary', 't:variables': '{"name":"Ada"}', 'o:tag': ['call'], 'h:Reply-To': 'help@example.com' });
    expect(spec({ ...req!, body })).toEqual([]);
  });

  it('retries a 5xx, then fails as unavailable', async () => {
    h.fake.on('POST', '/v3/mg.example.com/messages', { status: 503, body: 'upstream unavailable' });
    await expect(run({ from: 'a@mg.example.com', to: ['b@example.com'], subject: 's', text: 't' })).rejects.toMatchObject({ type: 'vendor_unavailable', retryable: true, attempts: 3, message: expect.stringContaining('503') });
    expect(h.fake.requests).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
  });

  it('picks the EU host for EU domains', () => {
    const base = mailgun.baseUrl as (c: Connection) => string;
    expect(base({ ...connection, settings: { region: 'EU' } })).toBe('https://api.eu.mailgun.net');
    expect(base(connection)).toBe('https://api.mailgun.net');
  });

  it('refuses bad params with every problem and sends nothing', async () => {
    await expect(run({ from: 'a@mg.example.com', to: [], subject: '' })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: expect.arrayContaining([expect.stringMatching(/^to:/), expect.stringMatching(/^subject:/), expect.stringMatching(/^text:/)]),
    });
    expect(h.fake.requests).toHaveLength(0);
  });

  it('the description check can fail: a message without to is reported', () => {
    expect(spec({ method: 'POST', path: '/v3/mg.example.com/messages', query: {}, headers: { 'content-type': 'multipart/form-data; boundary=x' }, rawBody: 'x', body: { from: 'a@b.c', subject: 's' } }).join('\n')).toMatch(/to/);
  });
});
