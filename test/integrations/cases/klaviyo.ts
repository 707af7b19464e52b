import type { IntegrationCases } from '../../helpers/action-cases';

const PROFILE_ID = '01GDDKASAP8TKDDA2GRZDSVP4H';
const H = {
  authorization: 'Klaviyo-API-Key pk_test_123',
  revision: '2026-07-15',
  'content-type': 'application/vnd.api+json',
  accept: 'application/vnd.api+json',
};

/** Klaviyo: private key header, the `revision` header, JSON:API bodies. */
export const klaviyo: IntegrationCases = {
  integration: 'klaviyo',
  connection: { kind: 'api_key', secrets: { api_key: 'pk_test_123' } },
  spec: { file: 'klaviyo.json' },
  cases: [
    {
      action: 'create_profile',
      params: { email: 'ada@example.com', phone_number: '+15005550006', first_name: 'Ada', properties: { last_call: 'booked' }, location: { city: 'London' } },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/api/profiles',
            headers: H,
            body: {
              data: {
                type: 'profile',
                attributes: {
                  email: 'ada@example.com',
                  phone_number: '+15005550006',
                  first_name: 'Ada',
                  properties: { last_call: 'booked' },
                  location: { city: 'London' },
                },
              },
            },
          },
          response: { status: 201, body: { data: { type: 'profile', id: PROFILE_ID } } },
        },
      ],
      data: { id: PROFILE_ID },
    },
    {
      action: 'upsert_profile',
      params: { external_id: 'crm-9', last_name: 'Lovelace' },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/api/profile-import',
            headers: H,
            body: { data: { type: 'profile', attributes: { external_id: 'crm-9', last_name: 'Lovelace' } } },
          },
          response: { status: 200, body: { data: { type: 'profile', id: PROFILE_ID } } },
        },
      ],
      data: { id: PROFILE_ID, created: false },
    },
    {
      action: 'add_to_list',
      params: { list_id: 'Y6nRLr', profile_ids: [PROFILE_ID] },
      exchanges: [
        {
          request: { method: 'POST', path: '/api/lists/Y6nRLr/relationships/profiles', headers: H, body: { data: [{ type: 'profile', id: PROFILE_ID }] } },
          response: { status: 204 },
        },
      ],
      data: { added: 1 },
      notDescribed: 'klaviyo.json keeps the two profile operations only',
    },
    {
      action: 'track_event',
      params: { metric: 'Call Completed', email: 'ada@example.com', properties: { outcome: 'booked' }, value: 120 },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/api/events',
            headers: H,
            body: {
              data: {
                type: 'event',
                attributes: {
                  properties: { outcome: 'booked' },
                  metric: { data: { type: 'metric', attributes: { name: 'Call Completed' } } },
                  profile: { data: { type: 'profile', attributes: { email: 'ada@example.com' } } },
                  value: 120,
                  unique_id: '{requestId}',
                },
              },
            },
          },
          response: { status: 202 },
        },
      ],
      data: { accepted: true },
      notDescribed: 'klaviyo.json keeps the two profile operations only',
    },
  ],
};
