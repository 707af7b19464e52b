import type { Connection } from '../../src/integrations/define';
import { intercomBaseUrl } from '../../src/integrations/intercom';
import { vendorFakeRunner } from '../helpers/integration-harness';
import { declareCoverage } from '../helpers/declare-coverage';
import { vendorSpec } from '../helpers/vendor-spec';

declareCoverage('intercom', ['create_contact', 'add_note', 'add_tag']);

const check = vendorSpec('intercom.json');
const connection: Connection = { id: 'c1', integration: 'intercom', kind: 'api_key', secrets: { api_key: 'dG9rOmludGVyY29t' }, settings: { region: 'eu' } };

describe('intercom', () => {
  const h = vendorFakeRunner('intercom', connection, 'req-1');
  const { run } = h;

  it('create_contact sends the token and Intercom-Version, as Intercom describes the operation', async () => {
    h.fake.on('POST', '/contacts', { status: 200, body: { type: 'contact', id: '6762f0d41bb69f9f2193bb7f', role: 'lead' } });
    const out = await run('create_contact', { email: 'ada@example.com', phone: '+447700900123', name: 'Ada Lovelace', custom_attributes: { plan: 'pro', seats: 3 } });
    expect(out.data).toEqual({ id: '6762f0d41bb69f9f2193bb7f', existing: false });
    const [req] = h.fake.requests;
    expect(req!.headers).toMatchObject({ authorization: 'Bearer dG9rOmludGVyY29t', 'intercom-version': '2.16', 'content-type': 'application/json' });
    expect(req!.body).toEqual({ role: 'lead', email: 'ada@example.com', phone: '+447700900123', name: 'Ada Lovelace', custom_attributes: { plan: 'pro', seats: 3 } });
    expect(check(req!)).toEqual([]);
  });

  it('create_contact returns the contact Intercom says already exists (409), so a replay creates nothing twice', async () => {
    h.fake.on('POST', '/contacts', { status: 409, body: { type: 'error.list', errors: [{ code: 'conflict', message: 'A contact matching those details already exists with id=5f7f0d41bb69f9f2193bb7a' }] } });
    await expect(run('create_contact', { role: 'user', email: 'ada@example.com' })).resolves.toMatchObject({ data: { id: '5f7f0d41bb69f9f2193bb7a', existing: true }, attempts: 1 });
  });

  it('add_note posts to the contact’s notes', async () => {
    h.fake.on('POST', '/contacts/6762f0d41bb69f9f2193bb7f/notes', { status: 200, body: { type: 'note', id: 31 } });
    await expect(run('add_note', { contact_id: '6762f0d41bb69f9f2193bb7f', body: '<p>Booked a demo</p>', admin_id: '991267' })).resolves.toMatchObject({ data: { id: '31' } });
    expect(h.fake.requests[0]!.body).toEqual({ body: '<p>Booked a demo</p>', admin_id: '991267' });
  });

  it('add_tag attaches a tag by id', async () => {
    h.fake.on('POST', '/contacts/6762f0d41bb69f9f2193bb7f/tags', { status: 200, body: { type: 'tag', id: '81', name: 'called' } });
    await expect(run('add_tag', { contact_id: '6762f0d41bb69f9f2193bb7f', tag_id: '81' })).resolves.toMatchObject({ data: { id: '81', name: 'called' } });
    expect(h.fake.requests[0]!.body).toEqual({ id: '81' });
  });

  it('404 (no such contact) fails without retrying', async () => {
    h.fake.on('POST', '/contacts/nope0000/notes', { status: 404, body: { type: 'error.list', errors: [{ code: 'not_found', message: 'User Not Found' }] } });
    await expect(run('add_note', { contact_id: 'nope0000', body: 'x' })).rejects.toMatchObject({ type: 'vendor_not_found', message: expect.stringContaining('User Not Found'), attempts: 1 });
  });

  it('uses the workspace’s regional host', () => {
    const conn = (settings: Record<string, string>): Connection => ({ ...connection, settings });
    expect(intercomBaseUrl(conn({}))).toBe('https://api.intercom.io');
    expect(intercomBaseUrl(conn({ region: 'eu' }))).toBe('https://api.eu.intercom.io');
    expect(intercomBaseUrl(conn({ region: 'au' }))).toBe('https://api.au.intercom.io');
    expect(() => intercomBaseUrl(conn({ region: 'mars' }))).toThrow(expect.objectContaining({ type: 'connection_incomplete' }));
  });

  it('the description check can fail: a mistyped field is reported', () => {
    expect(check({ method: 'POST', path: '/contacts', query: {}, headers: { 'content-type': 'application/json' }, rawBody: '{}', body: { email: 'a@b.c', signed_up_at: 'yesterday' } }).length).toBeGreaterThan(0);
  });
});
