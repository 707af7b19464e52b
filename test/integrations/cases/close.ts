import type { IntegrationCases } from '../../helpers/action-cases';

const H = { authorization: `Basic ${Buffer.from('api_4xTESTKEY:').toString('base64')}` };
const LEAD = 'lead_IIDHIStmFcFQZZP0BRe99V1MCoXWz2PGCm6EDmR9v2O';

/** Close: the API key as the Basic username. */
export const close: IntegrationCases = {
  integration: 'close',
  connection: { kind: 'api_key', secrets: { api_key: 'api_4xTESTKEY' } },
  cases: [
    {
      action: 'create_lead',
      params: {
        name: 'Engines Ltd',
        contacts: [{ name: 'Ada', emails: ['ada@example.com'], phones: ['+15551234567'] }],
        custom_fields: { cf_v6S011I6MqcbVvB2FA5Nk8dr5MkL8sWuCiG8cUleO9c: 'AI call' },
      },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/api/v1/lead/',
            headers: { ...H, 'content-type': 'application/json' },
            body: {
              name: 'Engines Ltd',
              contacts: [{ name: 'Ada', emails: [{ email: 'ada@example.com', type: 'office' }], phones: [{ phone: '+15551234567', type: 'office' }] }],
              'custom.cf_v6S011I6MqcbVvB2FA5Nk8dr5MkL8sWuCiG8cUleO9c': 'AI call',
            },
          },
          response: { status: 200, body: { id: LEAD, contacts: [{ id: 'cont_abc' }] } },
        },
      ],
      data: { id: LEAD, contact_ids: ['cont_abc'] },
    },
    {
      action: 'add_note',
      params: { lead_id: 'lead_abc', note: 'Wants pricing' },
      exchanges: [
        {
          request: { method: 'POST', path: '/api/v1/activity/note/', headers: H, body: { lead_id: 'lead_abc', note: 'Wants pricing' } },
          response: { status: 200, body: { id: 'acti_note1' } },
        },
      ],
      data: { id: 'acti_note1' },
    },
    {
      action: 'log_call',
      params: { lead_id: 'lead_abc', direction: 'inbound', duration: 95, phone: '+15551234567', note: 'Booked', disposition: 'answered' },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/api/v1/activity/call/',
            headers: H,
            body: {
              lead_id: 'lead_abc',
              direction: 'inbound',
              duration: 95,
              phone: '+15551234567',
              note: 'Booked',
              disposition: 'answered',
              status: 'completed',
            },
          },
          response: { status: 200, body: { id: 'acti_call1' } },
        },
      ],
      data: { id: 'acti_call1' },
    },
  ],
};
