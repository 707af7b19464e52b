import type { IntegrationCases } from '../../helpers/action-cases';

const H = { authorization: `Basic ${Buffer.from('agent@acme.test/token:zd-token-abc').toString('base64')}` };

/** Zendesk: email/token Basic auth on the account's subdomain; the run's Idempotency-Key on ticket creation. */
export const zendesk: IntegrationCases = {
  integration: 'zendesk',
  connection: { kind: 'api_key', secrets: { api_key: 'zd-token-abc' }, settings: { subdomain: 'acme', email: 'agent@acme.test' } },
  cases: [
    {
      action: 'create_ticket',
      params: {
        subject: 'Callback request',
        comment: 'Caller wants a callback at 5pm',
        requester: { name: 'Ada', email: 'ada@example.com' },
        priority: 'high',
        tags: ['ai-call'],
        custom_field_values: { '360001234': 'billing' },
      },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/api/v2/tickets.json',
            headers: { ...H, 'idempotency-key': '{requestId}', 'content-type': 'application/json' },
            body: {
              ticket: {
                subject: 'Callback request',
                requester: { name: 'Ada', email: 'ada@example.com' },
                priority: 'high',
                tags: ['ai-call'],
                comment: { body: 'Caller wants a callback at 5pm', public: true },
                custom_fields: [{ id: 360001234, value: 'billing' }],
              },
            },
          },
          response: { status: 201, headers: { 'x-idempotency-lookup': 'miss' }, body: { ticket: { id: 35436, status: 'new' } } },
        },
      ],
      data: { id: 35436, status: 'new' },
    },
    {
      action: 'add_comment',
      params: { ticket_id: 35436, body: 'Summary: wants a refund', status: 'pending' },
      exchanges: [
        {
          request: {
            method: 'PUT',
            path: '/api/v2/tickets/35436.json',
            headers: H,
            body: { ticket: { comment: { body: 'Summary: wants a refund', public: false }, status: 'pending' } },
          },
          response: { status: 200, body: { ticket: { id: 35436, status: 'pending' } } },
        },
      ],
      data: { id: 35436, status: 'pending' },
    },
    {
      action: 'upsert_user',
      params: { name: 'Ada', email: 'ada@example.com', phone: '+15551234567', user_fields: { plan: 'pro' } },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/api/v2/users/create_or_update.json',
            headers: H,
            body: { user: { name: 'Ada', email: 'ada@example.com', phone: '+15551234567', user_fields: { plan: 'pro' }, role: 'end-user' } },
          },
          response: { status: 200, body: { user: { id: 9000 } } },
        },
      ],
      data: { id: 9000, created: false },
    },
  ],
};
