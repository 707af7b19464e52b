import { createHash } from 'node:crypto';
import type { Connection } from '../../src/integrations/define';
import { mailchimpBaseUrl } from '../../src/integrations/mailchimp';
import { vendorFakeRunner } from '../helpers/integration-harness';
import { mailchimp as cases } from './cases/mailchimp';

const HASH = createHash('md5').update('ada@example.com').digest('hex');
const MEMBER = `/3.0/lists/57afe96172/members/${HASH}`;

// The requests of every action are the cases in ./cases/mailchimp.ts; these are the variants, failures and refusals.
describe('mailchimp', () => {
  const h = vendorFakeRunner(cases, 'req-1');
  const { run } = h;

  it('add_tags marks tags active/inactive and add_note posts the note (OAuth: Bearer)', async () => {
    h.fake.on('POST', `${MEMBER}/tags`, { status: 204 });
    h.fake.on('POST', `${MEMBER}/notes`, { status: 200, body: { id: 12, note: 'x' } });
    const oauth: Connection = { ...h.connection, kind: 'oauth2', secrets: { access_token: 'mc-oauth' }, settings: { dc: 'us6' } };
    await expect(run('add_tags', { list_id: '57afe96172', email_address: 'ada@example.com', tags: ['hot'], remove: ['cold'] }, oauth)).resolves.toMatchObject({
      data: { updated: true },
    });
    await expect(run('add_note', { list_id: '57afe96172', email_address: 'ada@example.com', note: 'Booked a call' }, oauth)).resolves.toMatchObject({
      data: { id: 12 },
    });
    expect(h.fake.requests.map((r) => [r.headers.authorization, r.body])).toEqual([
      [
        'Bearer mc-oauth',
        {
          tags: [
            { name: 'hot', status: 'active' },
            { name: 'cold', status: 'inactive' },
          ],
        },
      ],
      ['Bearer mc-oauth', { note: 'Booked a call' }],
    ]);
  });

  it('400 surfaces Mailchimp’s problem detail', async () => {
    h.fake.on('PUT', MEMBER, {
      status: 400,
      body: {
        type: 'https://mailchimp.com/developer/marketing/docs/errors/',
        title: 'Member In Compliance State',
        status: 400,
        detail: 'ada@example.com is in a compliance state due to unsubscribe, bounce, or compliance review and cannot be subscribed.',
      },
    });
    await expect(run('upsert_member', { list_id: '57afe96172', email_address: 'ada@example.com' })).rejects.toMatchObject({
      type: 'vendor_rejected',
      message: expect.stringContaining('compliance state'),
      attempts: 1,
    });
  });

  it('takes the data centre from settings.dc or the API key suffix', () => {
    expect(mailchimpBaseUrl(h.connection)).toBe('https://us6.api.mailchimp.com');
    expect(mailchimpBaseUrl({ ...h.connection, kind: 'oauth2', secrets: { access_token: 't' }, settings: { dc: 'us19' } })).toBe(
      'https://us19.api.mailchimp.com',
    );
    expect(() => mailchimpBaseUrl({ ...h.connection, secrets: { api_key: 'nodc' } })).toThrow(expect.objectContaining({ type: 'connection_incomplete' }));
    expect(() => mailchimpBaseUrl({ ...h.connection, settings: { dc: 'evil.example/' } })).toThrow(expect.objectContaining({ type: 'connection_incomplete' }));
  });
});
