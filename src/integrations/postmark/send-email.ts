import { z } from 'zod';
import { defineAction } from '../define';
import { envelope, envelopeFields, sent, sentOutput } from './email';

const input = z
  .object({ ...envelope, subject: z.string().min(1).max(2000), text: z.string().min(1).optional(), html: z.string().min(1).optional() })
  .strict()
  .refine((p) => p.text || p.html, { message: 'give text or html', path: ['text'] });

/** Sends one email (POST /email). */
export default defineAction({
  key: 'send_email',
  title: 'Send an email',
  input,
  output: sentOutput,
  idempotent: false,
  docs: 'https://postmarkapp.com/developer/api/email-api#send-a-single-email',
  async run(p, { http }) {
    const res = await http.request<{ MessageID: string; SubmittedAt: string; To: string }>({
      method: 'POST',
      path: '/email',
      json: { ...envelopeFields(p), Subject: p.subject, ...(p.text ? { TextBody: p.text } : {}), ...(p.html ? { HtmlBody: p.html } : {}) },
    });
    return sent(res.body);
  },
});
