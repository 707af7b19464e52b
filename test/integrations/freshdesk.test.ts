import { freshdeskBaseUrl } from '../../src/integrations/freshdesk';
import { vendorFakeRunner } from '../helpers/integration-harness';
import { freshdesk as cases } from './cases/freshdesk';

// The requests of every action are the cases in ./cases/freshdesk.ts; these are the variants, failures and refusals.
describe('freshdesk', () => {
  const h = vendorFakeRunner(cases, 'req-1');
  const { run, waits } = h;

  it('429 waits for Retry-After, then succeeds', async () => {
    h.fake.on(
      'POST',
      '/api/v2/contacts',
      { status: 429, headers: { 'retry-after': '2' }, body: { message: 'rate limited' } },
      { status: 201, body: { id: 78 } },
    );
    await expect(run('create_contact', { name: 'Ada', email: 'ada@example.com' })).resolves.toMatchObject({ data: { id: 78 }, attempts: 2 });
    expect(waits).toEqual([2000]);
  });

  it('503 is retried, then the run fails; a 500 on a note (not idempotent) is not sent again', async () => {
    h.fake.on('POST', '/api/v2/tickets/1001/notes', { status: 503, body: { message: 'unavailable' } });
    await expect(run('add_note', { ticket_id: 1001, body: 'x' })).rejects.toMatchObject({ type: 'vendor_unavailable', retryable: true, attempts: 3 });
    h.fake.on('POST', '/api/v2/tickets/1002/notes', { status: 500, body: { message: 'internal' } });
    await expect(run('add_note', { ticket_id: 1002, body: 'x' })).rejects.toMatchObject({ type: 'outcome_unknown', retryable: false, attempts: 1 });
  });

  it('400 names the field Freshdesk refused', async () => {
    h.fake.on('POST', '/api/v2/contacts', {
      status: 409,
      body: {
        description: 'Validation failed',
        errors: [{ field: 'email', additional_info: { user_id: 5 }, message: 'It should be a unique value', code: 'duplicate_value' }],
      },
    });
    await expect(run('create_contact', { name: 'Ada', email: 'ada@example.com' })).rejects.toMatchObject({
      type: 'vendor_rejected',
      message: 'Freshdesk rejected the request (409: email: It should be a unique value)',
      attempts: 1,
    });
  });

  it('401 asks to reconnect', async () => {
    h.fake.on('POST', '/api/v2/tickets', { status: 401, body: { code: 'invalid_credentials', message: 'You have to be logged in to perform this action.' } });
    await expect(run('create_ticket', { subject: 's', description: 'd', email: 'ada@example.com' })).rejects.toMatchObject({
      type: 'vendor_auth_failed',
      message: expect.stringMatching(/logged in.*reconnect/),
    });
  });

  it('a ticket needs a requester; nothing is sent', async () => {
    await expect(run('create_ticket', { subject: 's', description: 'd' })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: ['email: give the requester: email, phone or requester_id'],
    });
    expect(h.fake.requests).toHaveLength(0);
  });

  it('the host is the helpdesk domain', () => {
    expect(freshdeskBaseUrl(h.connection)).toBe('https://acme.freshdesk.com');
    expect(freshdeskBaseUrl({ ...h.connection, settings: { subdomain: 'beta' } })).toBe('https://beta.freshdesk.com');
    expect(() => freshdeskBaseUrl({ ...h.connection, settings: { domain: 'acme.freshdesk.com' } })).toThrow(
      expect.objectContaining({ type: 'connection_incomplete' }),
    );
  });
});
