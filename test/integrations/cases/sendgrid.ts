import type { IntegrationCases } from '../../helpers/action-cases';

const H = { authorization: 'Bearer SG.test', 'content-type': 'application/json' };
const LIST = 'ca7a3796-e8d8-4cf2-9b5f-7d9b8e1f0a11';

/** SendGrid: API key as bearer. */
export const sendgrid: IntegrationCases = {
  integration: 'sendgrid',
  connection: { kind: 'api_key', secrets: { api_key: 'SG.test' } },
  spec: { file: 'sendgrid.json' },
  cases: [
    {
      action: 'send_email',
      params: {
        to: [{ email: 'ada@example.com', name: 'Ada' }],
        cc: [{ email: 'ops@example.com' }],
        from: { email: 'agent@example.org', name: 'Agent' },
        replyTo: { email: 'help@example.org' },
        subject: 'Your call summary',
        text: 'Thanks for calling',
        html: '<p>Thanks for calling</p>',
        categories: ['call'],
      },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/v3/mail/send',
            headers: H,
            body: {
              personalizations: [{ to: [{ email: 'ada@example.com', name: 'Ada' }], cc: [{ email: 'ops@example.com' }] }],
              from: { email: 'agent@example.org', name: 'Agent' },
              reply_to: { email: 'help@example.org' },
              subject: 'Your call summary',
              content: [
                { type: 'text/plain', value: 'Thanks for calling' },
                { type: 'text/html', value: '<p>Thanks for calling</p>' },
              ],
              categories: ['call'],
            },
          },
          response: { status: 202, headers: { 'x-message-id': 'msg-abc' } },
        },
      ],
      data: { accepted: true, messageId: 'msg-abc' },
    },
    {
      action: 'send_email',
      name: 'a dynamic template',
      params: { to: [{ email: 'ada@example.com' }], from: { email: 'agent@example.org' }, templateId: 'd-123', dynamicTemplateData: { first_name: 'Ada' } },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/v3/mail/send',
            headers: H,
            body: {
              personalizations: [{ to: [{ email: 'ada@example.com' }], dynamic_template_data: { first_name: 'Ada' } }],
              from: { email: 'agent@example.org' },
              template_id: 'd-123',
            },
          },
          response: { status: 202, headers: { 'x-message-id': 'msg-def' } },
        },
      ],
      data: { accepted: true, messageId: 'msg-def' },
    },
    {
      action: 'upsert_contact',
      params: { email: 'ada@example.com', first_name: 'Ada', phone_number: '+14155550100', listIds: [LIST], custom_fields: { e1_T: 'inbound call', e2_N: 3 } },
      exchanges: [
        {
          request: {
            method: 'PUT',
            path: '/v3/marketing/contacts',
            headers: H,
            body: {
              list_ids: [LIST],
              contacts: [{ email: 'ada@example.com', first_name: 'Ada', phone_number: '+14155550100', custom_fields: { e1_T: 'inbound call', e2_N: 3 } }],
            },
          },
          response: { status: 202, body: { job_id: '2387e363-4104-4225-8960-4a5758492351' } },
        },
      ],
      data: { jobId: '2387e363-4104-4225-8960-4a5758492351' },
      notDescribed: 'sendgrid.json keeps mail/send only',
    },
  ],
};
