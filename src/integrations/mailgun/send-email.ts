import { z } from 'zod';
import { defineAction, VendorError } from '../define';

const addresses = z.array(z.string().min(3).max(320)).max(1000);

const input = z
  .object({
    from: z.string().min(3).max(320).describe('Sender ("Name <address@your-domain>")'),
    to: addresses.min(1).describe('Recipients ("Name <address>" or address)'),
    cc: addresses.optional(),
    bcc: addresses.optional(),
    subject: z.string().min(1).max(998),
    text: z.string().min(1).optional(),
    html: z.string().min(1).optional(),
    template: z.string().min(1).optional().describe('Stored template name; its variables go in variables'),
    variables: z.record(z.string(), z.unknown()).optional().describe('Template variables (sent as t:variables)'),
    tags: z.array(z.string().min(1).max(128)).max(10).optional(),
    replyTo: z.string().min(3).max(320).optional(),
    domain: z
      .string()
      .regex(/^[a-z0-9.-]+$/i)
      .optional()
      .describe("Sending domain; defaults to the connection's domain setting"),
  })
  .strict()
  .refine((p) => p.text || p.html || p.template, { message: 'give text, html or template', path: ['text'] });

const output = z.object({ id: z.string(), message: z.string() });

/** Multipart form data, which Mailgun's description gives as the messages body (built by the platform's FormData encoder). */
async function multipart(fields: Array<[string, string]>): Promise<{ body: Uint8Array; contentType: string }> {
  const form = new FormData();
  for (const [k, v] of fields) form.append(k, v);
  const encoded = new Request('http://localhost/', { method: 'POST', body: form });
  return { body: new Uint8Array(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type')! };
}

/** Sends an email (POST /v3/{domain}/messages). */
export default defineAction({
  key: 'send_email',
  title: 'Send an email',
  input,
  output,
  idempotent: false,
  docs: 'https://documentation.mailgun.com/docs/mailgun/api-reference/send/mailgun/messages/post-v3--domain-name--messages',
  async run(p, { http, connection }) {
    const domain = p.domain ?? connection.settings.domain;
    if (!domain) throw new VendorError('vendor_rejected', "no sending domain: set the mailgun connection's domain setting or give domain", false);
    const fields: Array<[string, string]> = [['from', p.from], ...p.to.map((t): [string, string] => ['to', t]), ['subject', p.subject]];
    for (const c of p.cc ?? []) fields.push(['cc', c]);
    for (const b of p.bcc ?? []) fields.push(['bcc', b]);
    if (p.text) fields.push(['text', p.text]);
    if (p.html) fields.push(['html', p.html]);
    if (p.template) fields.push(['template', p.template]);
    if (p.variables) fields.push(['t:variables', JSON.stringify(p.variables)]);
    for (const t of p.tags ?? []) fields.push(['o:tag', t]);
    if (p.replyTo) fields.push(['h:Reply-To', p.replyTo]);
    const { body, contentType } = await multipart(fields);
    const res = await http.request<{ id: string; message: string }>({
      method: 'POST',
      path: `/v3/${encodeURIComponent(domain)}/messages`,
      body,
      headers: { 'content-type': contentType },
    });
    return { id: res.body.id, message: res.body.message };
  },
});
