import { z } from 'zod';
import { defineAction } from '../define';

const address = z.object({ email: z.email(), name: z.string().max(256).optional() }).strict();

const input = z
  .object({
    to: z.array(address).min(1).max(1000).describe('Recipients (one personalization: they all see the same message)'),
    cc: z.array(address).max(1000).optional(),
    bcc: z.array(address).max(1000).optional(),
    from: address.describe('A verified sender'),
    replyTo: address.optional(),
    subject: z.string().min(1).max(998).optional().describe('Required unless the dynamic template sets it'),
    text: z.string().min(1).optional().describe('Plain-text body'),
    html: z.string().min(1).optional().describe('HTML body'),
    templateId: z.string().min(1).optional().describe('Dynamic template id (d-…); its data goes in dynamicTemplateData'),
    dynamicTemplateData: z.record(z.string(), z.unknown()).optional(),
    categories: z.array(z.string().max(255)).max(10).optional(),
  })
  .strict()
  .refine((p) => p.text || p.html || p.templateId, { message: 'give text, html or templateId', path: ['text'] })
  .refine((p) => p.subject || p.templateId, { message: 'subject is required without a template', path: ['subject'] });

const output = z.object({ accepted: z.literal(true), messageId: z.string().nullable() });

/** Sends an email through v3/mail/send (SendGrid answers 202 with the message id in X-Message-Id). */
export default defineAction({
  key: 'send_email',
  title: 'Send an email',
  input,
  output,
  idempotent: false,
  docs: 'https://www.twilio.com/docs/sendgrid/api-reference/mail-send/mail-send',
  async run(p, { http }) {
    const content = [...(p.text ? [{ type: 'text/plain', value: p.text }] : []), ...(p.html ? [{ type: 'text/html', value: p.html }] : [])];
    const personalization = {
      to: p.to,
      ...(p.cc ? { cc: p.cc } : {}),
      ...(p.bcc ? { bcc: p.bcc } : {}),
      ...(p.dynamicTemplateData ? { dynamic_template_data: p.dynamicTemplateData } : {}),
    };
    const res = await http.request({
      method: 'POST',
      path: '/v3/mail/send',
      json: {
        personalizations: [personalization],
        from: p.from,
        ...(p.replyTo ? { reply_to: p.replyTo } : {}),
        ...(p.subject ? { subject: p.subject } : {}),
        ...(content.length ? { content } : {}),
        ...(p.templateId ? { template_id: p.templateId } : {}),
        ...(p.categories ? { categories: p.categories } : {}),
      },
    });
    return { accepted: true as const, messageId: res.headers['x-message-id'] ?? null };
  },
});
