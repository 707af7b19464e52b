import { activecampaignBaseUrl } from '../../src/integrations/activecampaign';
import type { Connection } from '../../src/integrations/define';
import { runIntegrationAction } from '../../src/integrations/run';
import { caseConnection } from '../helpers/action-cases';
import { startVendorFake, type VendorFake } from '../helpers/vendor-fake';
import { activecampaign as cases } from './cases/activecampaign';

// The requests of every action are the cases in ./cases/activecampaign.ts; these are the failures and the host rules.
describe('activecampaign', () => {
  let fake: VendorFake;
  // The account's own API URL comes from the connection; no global override is involved.
  const connection = (): Connection => caseConnection(cases, fake.url);
  const run = (action: string, params: unknown, conn = connection()) =>
    runIntegrationAction({
      action,
      integration: 'activecampaign',
      params,
      connection: conn,
      idempotencyKey: 'req-1',
      ssrfAllowlist: ['127.0.0.1/8'],
      http: { sleep: async () => undefined },
    });

  beforeAll(async () => {
    fake = await startVendorFake();
  });
  afterAll(() => fake.stop());
  beforeEach(() => fake.clear());

  it('422 surfaces ActiveCampaign’s error title', async () => {
    fake.on('POST', '/api/3/contact/sync', {
      status: 422,
      body: { errors: [{ title: 'Email address is not valid.', detail: '', code: 'email_invalid', source: { pointer: '/data/attributes/email' } }] },
    });
    await expect(run('sync_contact', { email: 'ada@example.com' })).rejects.toMatchObject({
      type: 'vendor_rejected',
      message: expect.stringContaining('Email address is not valid.'),
      attempts: 1,
    });
  });

  it('403 (bad token) asks to reconnect', async () => {
    fake.on('POST', '/api/3/notes', { status: 403, body: { message: 'No Result found for Subscriber with id 113' } });
    await expect(run('add_note', { contact: '113', note: 'x' })).rejects.toMatchObject({
      type: 'vendor_auth_failed',
      message: expect.stringContaining('reconnect'),
    });
  });

  it('derives the host from the account URL or name', () => {
    const conn = (settings: Record<string, string>): Connection => ({ ...connection(), settings });
    expect(activecampaignBaseUrl(conn({ account_url: 'https://acme.api-us1.com/' }))).toBe('https://acme.api-us1.com');
    expect(activecampaignBaseUrl(conn({ account: 'acme' }))).toBe('https://acme.api-us1.com');
    expect(() => activecampaignBaseUrl(conn({}))).toThrow(expect.objectContaining({ type: 'connection_incomplete' }));
    expect(() => activecampaignBaseUrl(conn({ account_url: 'https://acme.api-us1.com/api/3?x' }))).toThrow(
      expect.objectContaining({ type: 'connection_incomplete' }),
    );
  });
});
