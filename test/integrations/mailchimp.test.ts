import { createHash } from 'node:crypto';
import type { Connection } from '../../src/integrations/define';
import { mailchimpBaseUrl } from '../../src/integrations/mailchimp';
import { declareCoverage } from '../helpers/declare-coverage';
import { vendorFakeRunner } from '../helpers/integration-harness';

declareCoverage('mailchimp', ['upsert_member', 'add_tags', 'add_note']);

const connection: Connection = { id: 'c1', integration: 'mailchimp', kind: 'api_key', secrets: { api_key: '0123456789abcdef0123456789abcdef-us6' }, settings: {} };
const HASH = createHash('md5').update('ada@example.com').digest('hex');
const MEMBER = `/3.0/lists/57afe96172/members/${HASH}`;

describe('mailchimp', () => {
  const h = vendorFakeRunner('mailchimp', connection, 'req-1');
  const { run } = h;

  it('upsert_member PUTs on the MD5 of the lower-cased email with Basic auth', async () => {
    h.fake.on('PUT', MEMBER, { status: 200, body: { id: HASH, status: 'subscribed' } });
    const out = await run('upsert_member', { list_id: '57afe96172', email_address: 'Ada@Example.com', merge_fields: { FNAME: 'Ada', PHONE: '+15551234567' }, tags: ['ai-call'] });
    expect(out.data).toEqual({ id: HASH, status: 'subscribed' });
    const [req] = h.fake.requests;
    expect(req!.method).toBe('PUT');
    expect(req!.headers.authorization).toBe(`Basic ${Buffer.from('switchboard:0123456789abcdef0123456789abcdef-us6').toString('base64')}`);
    expect(req!.body).toEqual({ email_address: 'Ada@Example.com', status_if_new: 'subscribed', merge_fields: { FNAME: 'Ada', PHONE: '+15551234567' }, tags: ['ai-call'] });
  });

  it('add_tags marks tags active/inactive and add_note posts the note (OAuth: Bearer)', async () => {
    h.fake.on('POST', `${MEMBER}/tags`, { status: 204 });
    h.fake.on('POST', `${MEMBER}/notes`, { status: 200, body: { id: 12, note: 'x' } });
    const oauth: Connection = { ...connection, kind: 'oauth2', secrets: { access_token: 'mc-oauth' }, settings: { dc: 'us6' } };
    await expect(run('add_tags', { list_id: '57afe96172', email_address: 'ada@example.com', tags: ['hot'], remove: ['cold'] }, oauth)).resolves.toMatchObject({ data: { updated: true } });
    await expect(run('add_note', { list_id: '57afe96172', email_address: 'ada@example.com', note: 'Booked a call' }, oauth)).resolves.toMatchObject({ data: { id: 12 } });
    expect(h.fake.requests.map((r) => [r.headers.authorization, r.body])).toEqual([
      ['Bearer mc-oauth', { tags: [{ name: 'hot', status: 'active' }, { name: 'cold', status: 'inactive' }] }],
      ['Bearer mc-oauth', { note: 'Booked a call' }],
    ]);
  });

  it('400 surfaces Mailchimp’s problem detail', async () => {
    h.fake.on('PUT', MEMBER, { status: 400, body: { type: 'https://mailchimp.com/developer/marketing/docs/errors/', title: 'Member In Compliance State', status: 400, detail: 'ada@example.com is in a compliance state due to unsubscribe, bounce, or compliance review and cannot be subscribed.' } });
    await expect(run('upsert_member', { list_id: '57afe96172', email_address: 'ada@example.com' })).rejects.toMatchObject({ type: 'vendor_rejected', message: expect.stringContaining('compliance state'), attempts: 1 });
  });

  it('takes the data centre from settings.dc or the API key suffix', () => {
    expect(mailchimpBaseUrl(connection)).toBe('https://us6.api.mailchimp.com');
    expect(mailchimpBaseUrl({ ...connection, kind: 'oauth2', secrets: { access_token: 't' }, settings: { dc: 'us19' } })).toBe('https://us19.api.mailchimp.com');
    expect(() => mailchimpBaseUrl({ ...connection, secrets: { api_key: 'nodc' } })).toThrow(expect.objectContaining({ type: 'connection_incomplete' }));
    expect(() => mailchimpBaseUrl({ ...connection, settings: { dc: 'evil.example/' } })).toThrow(expect.objectContaining({ type: 'connection_incomplete' }));
  });
});
