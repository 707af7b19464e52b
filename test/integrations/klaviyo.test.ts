import { vendorFakeRunner } from '../helpers/integration-harness';
import { klaviyo as cases } from './cases/klaviyo';
import { vendorSpec } from '../helpers/vendor-spec';

const check = vendorSpec('klaviyo.json');
const PROFILE_ID = '01GDDKASAP8TKDDA2GRZDSVP4H';

// The requests of every action are the cases in ./cases/klaviyo.ts; these are the variants, failures and refusals.
describe('klaviyo', () => {
  const h = vendorFakeRunner(cases, 'req-42');
  const { run, waits } = h;

  it('upsert_profile uses profile-import (create or update), as Klaviyo describes the operation', async () => {
    h.fake.on('POST', '/api/profile-import', { status: 200, body: { data: { type: 'profile', id: PROFILE_ID } } });
    const out = await run(
      'upsert_profile',
      { external_id: 'crm-9', last_name: 'Lovelace' },
      { ...h.connection, kind: 'oauth2', secrets: { access_token: 'oauth-tok' } },
    );
    expect(out.data).toEqual({ id: PROFILE_ID, created: false });
    const [req] = h.fake.requests;
    expect(req!.headers.authorization).toBe('Bearer oauth-tok');
    expect(req!.body).toEqual({ data: { type: 'profile', attributes: { external_id: 'crm-9', last_name: 'Lovelace' } } });
    expect(check(req!)).toEqual([]);
  });

  it('a duplicate profile (409) is refused with Klaviyo’s words, not retried', async () => {
    h.fake.on('POST', '/api/profiles', {
      status: 409,
      body: {
        errors: [
          {
            id: 'e1',
            status: 409,
            code: 'duplicate_profile',
            title: 'Conflict.',
            detail: 'A profile already exists with one of these identifiers.',
            meta: { duplicate_profile_id: PROFILE_ID },
          },
        ],
      },
    });
    await expect(run('create_profile', { email: 'ada@example.com' })).rejects.toMatchObject({
      type: 'vendor_rejected',
      message: expect.stringContaining('A profile already exists'),
      attempts: 1,
    });
  });

  it('5xx is retried, then the run fails', async () => {
    h.fake.on('POST', '/api/profile-import', { status: 503, body: { errors: [{ detail: 'maintenance' }] } });
    await expect(run('upsert_profile', { email: 'ada@example.com' })).rejects.toMatchObject({ type: 'vendor_unavailable', retryable: true, attempts: 3 });
    expect(h.fake.requests).toHaveLength(3);
    expect(waits).toHaveLength(2);
  });

  it('a profile needs an identifier; nothing is sent', async () => {
    await expect(run('create_profile', { first_name: 'Ada' })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: ['email: give email, phone_number or external_id'],
    });
    await expect(run('upsert_profile', { phone_number: '555', email: 'not-an-email' })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: expect.arrayContaining([expect.stringContaining('phone_number'), expect.stringContaining('email')]),
    });
    expect(h.fake.requests).toHaveLength(0);
  });

  it('the description check can fail: a profile without its type is reported', () => {
    expect(
      check({
        method: 'POST',
        path: '/api/profiles',
        query: {},
        headers: { 'content-type': 'application/vnd.api+json', revision: '2026-07-15' },
        rawBody: '{}',
        body: { data: { attributes: { email: 'a@b.c' } } },
      }).length,
    ).toBeGreaterThan(0);
  });
});
