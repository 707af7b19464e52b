import type { IntegrationCases } from '../../helpers/action-cases';
import type { RecordedRequest } from '../../helpers/vendor-fake';

/** What the base64url RFC 2822 message in `raw` says (headers unfolded; Date and Message-ID vary, so not compared). */
export function gmailMessage(req: RecordedRequest): Record<string, unknown> {
  const text = Buffer.from((req.body as { raw: string }).raw, 'base64url').toString('utf8');
  const [head] = text.split('\r\n\r\n');
  const headers: Record<string, string> = {};
  for (const line of head!.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const at = line.indexOf(':');
    headers[line.slice(0, at).toLowerCase()] = line.slice(at + 1).trim();
  }
  const { to, cc, bcc, subject } = headers;
  return {
    to,
    cc,
    bcc,
    replyTo: headers['reply-to'],
    subject,
    mimeVersion: headers['mime-version'],
    type: headers['content-type']?.split(';')[0],
    text: text.includes('\r\n\r\nThanks for calling'),
    html: text.includes('<p>Thanks for calling</p>'),
  };
}

/** Gmail: users.messages.send with an OAuth bearer. */
export const gmail: IntegrationCases = {
  integration: 'gmail',
  connection: { kind: 'oauth2', secrets: { access_token: 'ya29.gmail' } },
  spec: { file: 'gmail.json' },
  cases: [
    {
      action: 'send_email',
      params: {
        to: ['ada@example.com'],
        cc: ['ops@example.com'],
        bcc: ['audit@example.com'],
        replyTo: 'help@example.com',
        subject: 'Résumé of your call',
        text: 'Thanks for calling',
        html: '<p>Thanks for calling</p>',
        threadId: '18c0',
      },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/gmail/v1/users/me/messages/send',
            headers: { authorization: 'Bearer ya29.gmail', 'content-type': 'application/json' },
            body: { raw: expect.stringMatching(/^[A-Za-z0-9_-]+$/), threadId: '18c0' },
            decoded: {
              of: gmailMessage,
              equals: {
                to: 'ada@example.com',
                cc: 'ops@example.com',
                bcc: 'audit@example.com',
                replyTo: 'help@example.com',
                subject: '=?UTF-8?Q?R=C3=A9sum=C3=A9_of_your_call?=',
                mimeVersion: '1.0',
                type: 'multipart/alternative',
                text: true,
                html: true,
              },
            },
          },
          response: { status: 200, body: { id: '18c1', threadId: '18c0', labelIds: ['SENT'] } },
        },
      ],
      data: { id: '18c1', threadId: '18c0' },
    },
  ],
};
