import { z } from 'zod';
import { defineAction } from '../define';
import { mailbox, mailboxPath, recipients } from './mailbox';

const addresses = z.array(z.email()).max(500);

const input = z
  .object({
    to: addresses.min(1).describe('Recipient addresses'),
    cc: addresses.optional(),
    bcc: addresses.optional(),
    replyTo: addresses.optional(),
    subject: z.string().min(1).max(998),
    body: z.string().min(1).describe('Message body'),
    contentType: z.enum(['Text', 'HTML']).default('Text').describe('Whether body is plain text or HTML'),
    saveToSentItems: z.boolean().default(true),
    mailbox,
  })
  .strict();

const output = z.object({ accepted: z.literal(true) });

/** Sends an email (user: sendMail; Graph answers 202 with no body). */
export default defineAction({
  key: 'send_email',
  title: 'Send an email',
  input,
  output,
  idempotent: false,
  docs: 'https://learn.microsoft.com/en-us/graph/api/user-sendmail?view=graph-rest-1.0',
  async run(p, { http }) {
    const message = {
      subject: p.subject,
      body: { contentType: p.contentType, content: p.body },
      toRecipients: recipients(p.to),
      ...(p.cc ? { ccRecipients: recipients(p.cc) } : {}),
      ...(p.bcc ? { bccRecipients: recipients(p.bcc) } : {}),
      ...(p.replyTo ? { replyTo: recipients(p.replyTo) } : {}),
    };
    await http.request({ method: 'POST', path: `${mailboxPath(p.mailbox)}/sendMail`, json: { message, saveToSentItems: p.saveToSentItems } });
    return { accepted: true as const };
  },
});
