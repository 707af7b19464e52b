import { runIntegrationAction } from '../../src/integrations/run';
import { zendeskBaseUrl } from '../../src/integrations/zendesk';
import { vendorFakeRunner } from '../helpers/integration-harness';
import { zendesk as cases } from './cases/zendesk';

// The requests of every action are the cases in ./cases/zendesk.ts; these are the variants, failures and refusals.
describe('zendesk', () => {
  const h = vendorFakeRunner(cases, 'req-7');
  const { run, waits } = h;

  it('a 5xx on create is retried with the same Idempotency-Key', async () => {
    h.fake.on(
      'POST',
      '/api/v2/tickets.json',
      { status: 503, headers: { 'retry-after': '1' }, body: { error: 'unavailable' } },
      { status: 201, body: { ticket: { id: 1 } } },
    );
    await expect(run('create_ticket', { subject: 's', comment: 'c' })).resolves.toMatchObject({ data: { id: 1 }, attempts: 2 });
    expect(h.fake.requests.map((r) => r.headers['idempotency-key'])).toEqual(['req-7', 'req-7']);
    expect(waits).toEqual([1000]);
  });

  it('add_comment PUTs an internal note by default (OAuth: Bearer)', async () => {
    h.fake.on('PUT', '/api/v2/tickets/35436.json', { status: 200, body: { ticket: { id: 35436, status: 'pending' } } });
    await run(
      'add_comment',
      { ticket_id: 35436, body: 'Summary: wants a refund', status: 'pending' },
      { ...h.connection, kind: 'oauth2', secrets: { access_token: 'zd-oauth' } },
    );
    const [req] = h.fake.requests;
    expect(req!.headers.authorization).toBe('Bearer zd-oauth');
    expect(req!.body).toEqual({ ticket: { comment: { body: 'Summary: wants a refund', public: false }, status: 'pending' } });
  });

  it('422 surfaces Zendesk’s validation details', async () => {
    h.fake.on('POST', '/api/v2/tickets.json', {
      status: 422,
      body: { error: 'RecordInvalid', description: 'Record validation errors', details: { base: [{ description: 'Requester: Email is invalid' }] } },
    });
    await expect(run('create_ticket', { subject: 's', comment: 'c' })).rejects.toMatchObject({
      type: 'vendor_rejected',
      message: 'Zendesk rejected the request (422: RecordInvalid: Requester: Email is invalid)',
      attempts: 1,
    });
  });

  it('the host is the account subdomain; a missing or odd one fails asking to reconnect', async () => {
    expect(zendeskBaseUrl(h.connection)).toBe('https://acme.zendesk.com');
    expect(() => zendeskBaseUrl({ ...h.connection, settings: { subdomain: 'acme.evil.example' } })).toThrow(
      expect.objectContaining({ type: 'connection_incomplete' }),
    );
    await expect(
      runIntegrationAction({
        integration: 'zendesk',
        action: 'create_ticket',
        params: { subject: 's', comment: 'c' },
        connection: { ...h.connection, settings: { email: 'agent@acme.test' } },
        idempotencyKey: 'r',
      }),
    ).rejects.toMatchObject({ type: 'connection_incomplete', message: expect.stringContaining('subdomain') });
  });
});
