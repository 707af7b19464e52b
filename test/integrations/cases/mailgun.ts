import type { IntegrationCases } from '../../helpers/action-cases';
import type { RecordedRequest } from '../../helpers/vendor-fake';

const ARRAYS = new Set(['to', 'cc', 'bcc', 'o:tag']);

/** The multipart fields as the server reads them (the description types to/cc/bcc/o:tag as arrays, repeated fields). */
export async function mailgunFields(req: RecordedRequest): Promise<Record<string, string | string[]>> {
  const form = await new Response(req.rawBody, { headers: { 'content-type': req.headers['content-type']! } }).formData();
  const out: Record<string, string | string[]> = {};
  // forEach, not keys(): with the DOM lib in the program (puppeteer's types), FormData has no iterators.
  const keys = new Set<string>();
  form.forEach((_value, key) => keys.add(key));
  for (const key of keys) out[key] = ARRAYS.has(key) ? (form.getAll(key) as string[]) : (form.get(key) as string);
  return out;
}

/** Mailgun: Basic api:key, multipart form data to the connection's sending domain. */
export const mailgun: IntegrationCases = {
  integration: 'mailgun',
  connection: { kind: 'api_key', secrets: { api_key: 'key-test' }, settings: { domain: 'mg.example.com' } },
  spec: { file: 'mailgun.json' },
  cases: [
    {
      action: 'send_email',
      params: {
        from: 'Agent <agent@mg.example.com>',
        to: ['ada@example.com', 'Bob <bob@example.com>'],
        subject: 'Summary',
        text: 'Thanks',
        html: '<b>Thanks</b>',
        tags: ['call'],
        variables: { name: 'Ada' },
        template: 'summary',
        replyTo: 'help@example.com',
      },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/v3/mg.example.com/messages',
            headers: {
              authorization: `Basic ${Buffer.from('api:key-test').toString('base64')}`,
              'content-type': expect.stringMatching(/^multipart\/form-data; boundary=/),
            },
            bodyOf: mailgunFields,
            body: {
              from: 'Agent <agent@mg.example.com>',
              to: ['ada@example.com', 'Bob <bob@example.com>'],
              subject: 'Summary',
              text: 'Thanks',
              html: '<b>Thanks</b>',
              template: 'summary',
              't:variables': '{"name":"Ada"}',
              'o:tag': ['call'],
              'h:Reply-To': 'help@example.com',
            },
          },
          response: { status: 200, body: { id: '<20261123.1@mg.example.com>', message: 'Queued. Thank you.' } },
        },
      ],
      data: { id: '<20261123.1@mg.example.com>', message: 'Queued. Thank you.' },
    },
  ],
};
