import { z } from 'zod';
import { defineAction } from '../define';
import { createMessage, E164 } from './messages';

const number = z.string().regex(E164, 'an E.164 number such as +14155550100');

const input = z
  .object({
    to: number.describe('Recipient WhatsApp number (E.164)'),
    from: number.optional().describe('Your WhatsApp-enabled Twilio number (E.164); or give messagingServiceSid'),
    messagingServiceSid: z
      .string()
      .regex(/^MG[0-9a-fA-F]{32}$/)
      .optional(),
    body: z.string().min(1).max(1600).optional().describe('Free text: reaches the user only within 24 hours of their last message'),
    contentSid: z
      .string()
      .regex(/^HX[0-9a-fA-F]{32}$/)
      .optional()
      .describe('An approved content template (HX…), usable outside the 24-hour window'),
    contentVariables: z.record(z.string().regex(/^\w+$/), z.string().max(1024)).optional().describe('Template variables by placeholder ({"1": "Ada"})'),
    mediaUrl: z.array(z.url()).max(1).optional(),
    statusCallback: z.url().optional(),
  })
  .strict()
  .refine((p) => p.from || p.messagingServiceSid, { message: 'give from or messagingServiceSid', path: ['from'] })
  .refine((p) => (p.body === undefined) !== (p.contentSid === undefined), { message: 'give exactly one of body and contentSid', path: ['body'] });

const output = z.object({ sid: z.string(), status: z.string(), to: z.string() });

/** Sends a WhatsApp message through Twilio (the Messages resource with whatsapp: addresses), once per run. */
export default defineAction({
  key: 'send_whatsapp',
  title: 'Send a WhatsApp message',
  input,
  output,
  idempotent: true,
  idempotencyHeader: 'I-Twilio-Idempotency-Token',
  docs: 'https://www.twilio.com/docs/whatsapp/api',
  run: (p, ctx) =>
    createMessage(ctx, {
      To: `whatsapp:${p.to}`,
      From: p.from ? `whatsapp:${p.from}` : undefined,
      MessagingServiceSid: p.messagingServiceSid,
      Body: p.body,
      ContentSid: p.contentSid,
      ContentVariables: p.contentVariables ? JSON.stringify(p.contentVariables) : undefined,
      MediaUrl: p.mediaUrl,
      StatusCallback: p.statusCallback,
    }),
});
