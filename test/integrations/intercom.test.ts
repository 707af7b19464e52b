import type { Connection } from '../../src/integrations/define';
import { intercomBaseUrl } from '../../src/integrations/intercom';
import { vendorFakeRunner } from '../helpers/integration-harness';
import { intercom as cases } from './cases/intercom';
import { vendorSpec } from '../helpers/vendor-spec';

const check = vendorSpec('intercom.json');

// The requests of every action are the cases in ./cases/intercom.ts; these are the variants, failures and refusals.
describe('intercom', () => {
  const h = vendorFakeRunner(cases, 'req-1');
  const { run } = h;

  it('create_contact returns the contact Intercom says already exists (409), so a replay creates nothing twice', async () => {
    h.fake.on('POST', '/contacts', {
      status: 409,
      body: { type: 'error.list', errors: [{ code: 'conflict', message: 'A contact matching those details already exists with id=5f7f0d41bb69f9f2193bb7a' }] },
    });
    await expect(run('create_contact', { role: 'user', email: 'ada@example.com' })).resolves.toMatchObject({
      data: { id: '5f7f0d41bb69f9f2193bb7a', existing: true },
      attempts: 1,
    });
  });

  it('404 (no such contact) fails without retrying', async () => {
    h.fake.on('POST', '/contacts/nope0000/notes', { status: 404, body: { type: 'error.list', errors: [{ code: 'not_found', message: 'User Not Found' }] } });
    await expect(run('add_note', { contact_id: 'nope0000', body: 'x' })).rejects.toMatchObject({
      type: 'vendor_not_found',
      message: expect.stringContaining('User Not Found'),
      attempts: 1,
    });
  });

  it('uses the workspace’s regional host', () => {
    const conn = (settings: Record<string, string>): Connection => ({ ...h.connection, settings });
    expect(intercomBaseUrl(conn({}))).toBe('https://api.intercom.io');
    expect(intercomBaseUrl(conn({ region: 'eu' }))).toBe('https://api.eu.intercom.io');
    expect(intercomBaseUrl(conn({ region: 'au' }))).toBe('https://api.au.intercom.io');
    expect(() => intercomBaseUrl(conn({ region: 'mars' }))).toThrow(expect.objectContaining({ type: 'connection_incomplete' }));
  });

  it('the description check can fail: a mistyped field is reported', () => {
    expect(
      check({
        method: 'POST',
        path: '/contacts',
        query: {},
        headers: { 'content-type': 'application/json' },
        rawBody: '{}',
        body: { email: 'a@b.c', signed_up_at: 'yesterday' },
      }).length,
    ).toBeGreaterThan(0);
  });
});
