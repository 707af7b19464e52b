import type { Connection } from '../../src/integrations/define';
import { runIntegrationAction } from '../../src/integrations/run';
import { zendeskBaseUrl } from '../../src/integrations/zendesk';
import { declareCoverage } from '../helpers/declare-coverage';
import { vendorFakeRunner } from '../helpers/integration-harness';

declareCoverage('zendesk', ['create_ticket', 'add_comment', 'upsert_user']);

const connection: Connection = { id: 'c1', integration: 'zendesk', kind: 'api_key', secrets: { api_key: 'zd-token-abc' }, settings: { subdomain: 'acme', email: 'agent@acme.test' } };

describe('zendesk', () => {
  const h = vendorFakeRunner('zendesk', connection, 'req-7');
  const { run, waits } = h;

  it('create_ticket sends email/token Basic auth, the run’s Idempotency-Key and custom fields as [{id, value}]', async () => {
    h.fake.on('POST', '/api/v2/tickets.json', { status: 201, headers: { 'x-idempotency-lookup': 'miss' }, body: { ticket: { id: 35436, status: 'new' } } });
    const out = await run('create_ticket', { subject: 'Callback request', comment: 'Caller wants a callback at 5pm', requester: { name: 'Ada', email: 'ada@example.com' }, priority: 'high', tags: ['ai-call'], custom_field_values: { '360001234': 'billing' } });
    expect(out.data).toEqual({ id: 35436, status: 'new' });
    const [req] = h.fake.requests;
    expect(req!.headers).toMatchObject({ authorization: `Basic ${Buffer.from('agent@acme.test/token:zd-token-abc').toString('base64')}`, 'idempotency-key': 'req-7' });
    expect(req!.body).toEqual({
      ticket: {
        subject: 'Callback request',
        requester: { name: 'Ada', email: 'ada@example.com' },
        priority: 'high',
        tags: ['ai-call'],
        comment: { body: 'Caller wants a callback at 5pm', public: true },
        custom_fields: [{ id: 360001234, value: 'billing' }],
      },
    });
  });

  it('a 5xx on create is retried with the same Idempotency-Key', async () => {
    h.fake.on('POST', '/api/v2/tickets.json', { status: 503, headers: { 'retry-after': '1' }, body: { error: 'unavailable' } }, { status: 201, body: { ticket: { id: 1 } } });
    await expect(run('create_ticket', { subject: 's', comment: 'c' })).resolves.toMatchObject({ data: { id: 1 }, attempts: 2 });
    expect(h.fake.requests.map((r) => r.headers['idempotency-key'])).toEqual(['req-7', 'req-7']);
    expect(waits).toEqual([1000]);
  });

  it('add_comment PUTs an internal note by default (OAuth: Bearer)', async () => {
    h.fake.on('PUT', '/api/v2/tickets/35436.json', { status: 200, body: { ticket: { id: 35436, status: 'pending' } } });
    await run('add_comment', { ticket_id: 35436, body: 'Summary: wants a refund', status: 'pending' }, { ...connection, kind: 'oauth2', secrets: { access_token: 'zd-oauth' } });
    const [req] = h.fake.requests;
    expect(req!.headers.authorization).toBe('Bearer zd-oauth');
    expect(req!.body).toEqual({ ticket: { comment: { body: 'Summary: wants a refund', public: false }, status: 'pending' } });
  });

  it('upsert_user creates or updates an end user', async () => {
    h.fake.on('POST', '/api/v2/users/create_or_update.json', { status: 200, body: { user: { id: 9000 } } });
    await expect(run('upsert_user', { name: 'Ada', email: 'ada@example.com', phone: '+15551234567', user_fields: { plan: 'pro' } })).resolves.toMatchObject({ data: { id: 9000, created: false } });
    expect(h.fake.requests[0]!.body).toEqual({ user: { name: 'Ada', email: 'ada@example.com', phone: '+15551234567', user_fields: { plan: 'pro' }, role: 'end-user' } });
  });

  it('422 surfaces Zendesk’s validation details', async () => {
    h.fake.on('POST', '/api/v2/tickets.json', { status: 422, body: { error: 'RecordInvalid', description: 'Record validation errors', details: { base: [{ description: 'Requester: Email is invalid' }] } } });
    await expect(run('create_ticket', { subject: 's', comment: 'c' })).rejects.toMatchObject({ type: 'vendor_rejected', message: 'Zendesk rejected the request (422: RecordInvalid: Requester: Email is invalid)', attempts: 1 });
  });

  it('the host is the account subdomain; a missing or odd one fails asking to reconnect', async () => {
    expect(zendeskBaseUrl(connection)).toBe('https://acme.zendesk.com');
    expect(() => zendeskBaseUrl({ ...connection, settings: { subdomain: 'acme.evil.example' } })).toThrow(expect.objectContaining({ type: 'connection_incomplete' }));
    await expect(runIntegrationAction({ integration: 'zendesk', action: 'create_ticket', params: { subject: 's', comment: 'c' }, connection: { ...connection, settings: { email: 'agent@acme.test' } }, idempotencyKey: 'r' })).rejects.toMatchObject({ type: 'connection_incomplete', message: expect.stringContaining('subdomain') });
  });
});
