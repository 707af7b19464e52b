import MailComposer from 'nodemailer/lib/mail-composer';
import { z } from 'zod';
import { defineAction } from '../define';

const recipients = z.array(z.email()).max(100);

const input = z
  .object({
    to: recipients.min(1).describe('Recipient addresses'),
    cc: recipients.optional(),
    bcc: recipients.optional(),
    from: z
      .string()
      .min(1)
      .max(320)
      .optional()
      .describe('Sender ("Name <address>"); defaults to the connected account, a different address must be a verified send-as alias'),
    replyTo: z.email().optional(),
    subject: z.string().min(1).max(998),
    text: z.string().min(1).optional().describe('Plain-text body'),
    html: z.string().min(1).optional().describe('HTML body (sent alongside text when both are given)'),
    threadId: z.string().min(1).optional().describe('Gmail thread to add the message to (its subject must match)'),
  })
  .strict()
  .refine((p) => p.text || p.html, { message: 'give text or html', path: ['text'] });

const output = z.object({ id: z.string(), threadId: z.string() });

/** Sends an email from the connected mailbox (users.messages.send with a base64url RFC 2822 message in `raw`). */
export default defineAction({
  key: 'send_email',
  title: 'Send an email',
  input,
  output,
  idempotent: false,
  docs: 'https://developers.google.com/workspace/gmail/api/reference/rest/v1/users.messages/send',
  async run(p, { http }) {
    const node = new MailComposer({
      from: p.from,
      to: p.to,
      cc: p.cc,
      bcc: p.bcc,
      replyTo: p.replyTo,
      subject: p.subject,
      text: p.text,
      html: p.html,
    }).compile();
    // Gmail reads Bcc from the raw message (and strips it before delivery), so the composer must keep it.
    node.keepBcc = true;
    const mime = await node.build();
    const res = await http.request<{ id: string; threadId: string }>({
      method: 'POST',
      path: '/gmail/v1/users/me/messages/send',
      json: { raw: mime.toString('base64url'), ...(p.threadId ? { threadId: p.threadId } : {}) },
    });
    return { id: res.body.id, threadId: res.body.threadId };
  },
});
