import type { Connection } from '../../src/integrations/define';
import { freshdeskBaseUrl } from '../../src/integrations/freshdesk';
import { declareCoverage } from '../helpers/declare-coverage';
import { vendorFakeRunner } from '../helpers/integration-harness';

declareCoverage('freshdesk', ['create_ticket', 'add_note', 'create_contact']);

const connection: Connection = { id: 'c1', integration: 'freshdesk', kind: 'api_key', secrets: { api_key: 'fd-key' }, settings: { domain: 'acme' } };

describe('freshdesk', () => {
  const h = vendorFakeRunner('freshdesk', connection, 'req-1');
  const { run, waits } = h;

  it('create_ticket sends key:X Basic auth and Freshdesk’s numeric priority/status/source', async () => {
    h.fake.on('POST', '/api/v2/tickets', { status: 201, body: { id: 1001 } });
    const out = await run('create_ticket', { subject: 'Callback', description: 'Wants a callback', email: 'ada@example.com', priority: 'high', tags: ['ai-call'], custom_fields: { cf_reason: 'billing' } });
    expect(out.data).toEqual({ id: 1001 });
    const [req] = h.fake.requests;
    expect(req!.headers.authorization).toBe(`Basic ${Buffer.from('fd-key:X').toString('base64')}`);
    expect(req!.body).toEqual({ subject: 'Callback', description: 'Wants a callback', email: 'ada@example.com', priority: 3, status: 2, source: 3, tags: ['ai-call'], custom_fields: { cf_reason: 'billing' } });
  });

  it('add_note posts a private note; create_contact creates the contact', async () => {
    h.fake.on('POST', '/api/v2/tickets/1001/notes', { status: 201, body: { id: 55 } });
    h.fake.on('POST', '/api/v2/contacts', { status: 201, body: { id: 77 } });
    await expect(run('add_note', { ticket_id: 1001, body: 'Call summary' })).resolves.toMatchObject({ data: { id: 55 } });
    await expect(run('create_contact', { name: 'Ada', phone: '+15551234567' })).resolves.toMatchObject({ data: { id: 77 } });
    expect(h.fake.requests.map((r) => r.body)).toEqual([{ body: 'Call summary', private: true }, { name: 'Ada', phone: '+15551234567' }]);
  });

  it('429 waits for Retry-After, then succeeds', async () => {
    h.fake.on('POST', '/api/v2/contacts', { status: 429, headers: { 'retry-after': '2' }, body: { message: 'rate limited' } }, { status: 201, body: { id: 78 } });
    await expect(run('create_contact', { name: 'Ada', email: 'ada@example.com' })).resolves.toMatchObject({ data: { id: 78 }, attempts: 2 });
    expect(waits).toEqual([2000]);
  });

  it('5xx is retried, then the run fails', async () => {
    h.fake.on('POST', '/api/v2/tickets/1001/notes', { status: 500, body: { message: 'internal' } });
    await expect(run('add_note', { ticket_id: 1001, body: 'x' })).rejects.toMatchObject({ type: 'vendor_unavailable', retryable: true, attempts: 3 });
  });

  it('400 names the field Freshdesk refused', async () => {
    h.fake.on('POST', '/api/v2/contacts', { status: 409, body: { description: 'Validation failed', errors: [{ field: 'email', additional_info: { user_id: 5 }, message: 'It should be a unique value', code: 'duplicate_value' }] } });
    await expect(run('create_contact', { name: 'Ada', email: 'ada@example.com' })).rejects.toMatchObject({ type: 'vendor_rejected', message: 'Freshdesk rejected the request (409: email: It should be a unique value)', attempts: 1 });
  });

  it('401 asks to reconnect', async () => {
    h.fake.on('POST', '/api/v2/tickets', { status: 401, body: { code: 'invalid_credentials', message: 'You have to be logged in to perform this action.' } });
    await expect(run('create_ticket', { subject: 's', description: 'd', email: 'ada@example.com' })).rejects.toMatchObject({ type: 'vendor_auth_failed', message: expect.stringMatching(/logged in.*reconnect/) });
  });

  it('a ticket needs a requester; nothing is sent', async () => {
    await expect(run('create_ticket', { subject: 's', description: 'd' })).rejects.toMatchObject({ type: 'invalid_params', problems: ['email: give the requester: email, phone or requester_id'] });
    expect(h.fake.requests).toHaveLength(0);
  });

  it('the host is the helpdesk domain', () => {
    expect(freshdeskBaseUrl(connection)).toBe('https://acme.freshdesk.com');
    expect(freshdeskBaseUrl({ ...connection, settings: { subdomain: 'beta' } })).toBe('https://beta.freshdesk.com');
    expect(() => freshdeskBaseUrl({ ...connection, settings: { domain: 'acme.freshdesk.com' } })).toThrow(expect.objectContaining({ type: 'connection_incomplete' }));
  });
});
