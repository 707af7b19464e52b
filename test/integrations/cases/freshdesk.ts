import type { IntegrationCases } from '../../helpers/action-cases';

const H = { authorization: `Basic ${Buffer.from('fd-key:X').toString('base64')}` };

/** Freshdesk: key:X Basic auth on the helpdesk's own domain. */
export const freshdesk: IntegrationCases = {
  integration: 'freshdesk',
  connection: { kind: 'api_key', secrets: { api_key: 'fd-key' }, settings: { domain: 'acme' } },
  cases: [
    {
      action: 'create_ticket',
      params: {
        subject: 'Callback',
        description: 'Wants a callback',
        email: 'ada@example.com',
        priority: 'high',
        tags: ['ai-call'],
        custom_fields: { cf_reason: 'billing' },
      },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/api/v2/tickets',
            headers: { ...H, 'content-type': 'application/json' },
            body: {
              subject: 'Callback',
              description: 'Wants a callback',
              email: 'ada@example.com',
              priority: 3,
              status: 2,
              source: 3,
              tags: ['ai-call'],
              custom_fields: { cf_reason: 'billing' },
            },
          },
          response: { status: 201, body: { id: 1001 } },
        },
      ],
      data: { id: 1001 },
    },
    {
      action: 'add_note',
      params: { ticket_id: 1001, body: 'Call summary' },
      exchanges: [
        {
          request: { method: 'POST', path: '/api/v2/tickets/1001/notes', headers: H, body: { body: 'Call summary', private: true } },
          response: { status: 201, body: { id: 55 } },
        },
      ],
      data: { id: 55 },
    },
    {
      action: 'create_contact',
      params: { name: 'Ada', phone: '+15551234567' },
      exchanges: [
        {
          request: { method: 'POST', path: '/api/v2/contacts', headers: H, body: { name: 'Ada', phone: '+15551234567' } },
          response: { status: 201, body: { id: 77 } },
        },
      ],
      data: { id: 77 },
    },
  ],
};
