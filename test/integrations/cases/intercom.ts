import type { IntegrationCases } from '../../helpers/action-cases';

const H = { authorization: 'Bearer dG9rOmludGVyY29t', 'intercom-version': '2.16' };
const CONTACT = '6762f0d41bb69f9f2193bb7f';

/** Intercom: access token, Intercom-Version, the workspace's regional host. */
export const intercom: IntegrationCases = {
  integration: 'intercom',
  connection: { kind: 'api_key', secrets: { api_key: 'dG9rOmludGVyY29t' }, settings: { region: 'eu' } },
  spec: { file: 'intercom.json' },
  cases: [
    {
      action: 'create_contact',
      params: { email: 'ada@example.com', phone: '+447700900123', name: 'Ada Lovelace', custom_attributes: { plan: 'pro', seats: 3 } },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/contacts',
            headers: { ...H, 'content-type': 'application/json' },
            body: { role: 'lead', email: 'ada@example.com', phone: '+447700900123', name: 'Ada Lovelace', custom_attributes: { plan: 'pro', seats: 3 } },
          },
          response: { status: 200, body: { type: 'contact', id: CONTACT, role: 'lead' } },
        },
      ],
      data: { id: CONTACT, existing: false },
    },
    {
      action: 'add_note',
      params: { contact_id: CONTACT, body: '<p>Booked a demo</p>', admin_id: '991267' },
      exchanges: [
        {
          request: { method: 'POST', path: `/contacts/${CONTACT}/notes`, headers: H, body: { body: '<p>Booked a demo</p>', admin_id: '991267' } },
          response: { status: 200, body: { type: 'note', id: 31 } },
        },
      ],
      data: { id: '31' },
      notDescribed: 'intercom.json keeps POST /contacts only',
    },
    {
      action: 'add_tag',
      params: { contact_id: CONTACT, tag_id: '81' },
      exchanges: [
        {
          request: { method: 'POST', path: `/contacts/${CONTACT}/tags`, headers: H, body: { id: '81' } },
          response: { status: 200, body: { type: 'tag', id: '81', name: 'called' } },
        },
      ],
      data: { id: '81', name: 'called' },
      notDescribed: 'intercom.json keeps POST /contacts only',
    },
  ],
};
