import type { IntegrationCases } from '../../helpers/action-cases';

// Postmark publishes no machine-readable API description (see ../shared/vendor-apis/INDEX.md): exact requests only.
const OK = { To: 'ada@example.com', SubmittedAt: '2026-11-23T10:00:00.000Z', MessageID: 'b7bc2f4a-e38e-4336-af7d-e6c392c2f817', ErrorCode: 0, Message: 'OK' };
const H = { 'x-postmark-server-token': 'pm-server-token', authorization: null, accept: 'application/json', 'content-type': 'application/json' };
const SENT = { messageId: OK.MessageID, submittedAt: OK.SubmittedAt, to: 'ada@example.com' };

/** Postmark: the server token header, PascalCase fields. */
export const postmark: IntegrationCases = {
  integration: 'postmark',
  connection: { kind: 'api_key', secrets: { server_token: 'pm-server-token' } },
  cases: [
    {
      action: 'send_email',
      params: {
        from: 'Agent <agent@example.org>',
        to: ['ada@example.com', 'bob@example.com'],
        cc: ['ops@example.org'],
        subject: 'Summary',
        text: 'Thanks',
        html: '<b>Thanks</b>',
        tag: 'call',
        messageStream: 'outbound',
        metadata: { call: 'c9' },
      },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/email',
            headers: H,
            body: {
              From: 'Agent <agent@example.org>',
              To: 'ada@example.com, bob@example.com',
              Cc: 'ops@example.org',
              Tag: 'call',
              MessageStream: 'outbound',
              Metadata: { call: 'c9' },
              Subject: 'Summary',
              TextBody: 'Thanks',
              HtmlBody: '<b>Thanks</b>',
            },
          },
          response: { status: 200, body: OK },
        },
      ],
      data: SENT,
    },
    {
      action: 'send_template',
      params: { from: 'agent@example.org', to: ['ada@example.com'], templateAlias: 'call-summary', model: { name: 'Ada' } },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/email/withTemplate',
            headers: H,
            body: { From: 'agent@example.org', To: 'ada@example.com', TemplateAlias: 'call-summary', TemplateModel: { name: 'Ada' } },
          },
          response: { status: 200, body: OK },
        },
      ],
      data: SENT,
    },
  ],
};
