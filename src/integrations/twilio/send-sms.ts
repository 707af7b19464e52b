import { z } from 'zod';
import { defineAction } from '../define';
import { createMessage, E164 } from './messages';

const input = z
  .object({
    to: z.string().regex(E164, 'an E.164 number such as +14155550100').describe('Recipient phone number (E.164)'),
    from: z.string().min(1).optional().describe('Sender: a Twilio number (E.164), short code or alphanumeric id; or give messagingServiceSid'),
    messagingServiceSid: z
      .string()
      .regex(/^MG[0-9a-fA-F]{32}$/)
      .optional()
      .describe('Messaging Service that picks the sender (MG…)'),
    body: z.string().min(1).max(1600).describe('Message text (up to 1600 characters)'),
    mediaUrl: z.array(z.url()).max(10).optional().describe('Public URLs of media to attach (MMS, up to 10)'),
    statusCallback: z.url().optional().describe('URL Twilio posts delivery status to'),
  })
  .strict()
  .refine((p) => p.from || p.messagingServiceSid, { message: 'give from or messagingServiceSid', path: ['from'] });

const output = z.object({ sid: z.string(), status: z.string(), to: z.string() });

/** Sends an SMS/MMS (Messages resource, form-encoded), with Twilio's idempotency token so a replay sends once. */
export default defineAction({
  key: 'send_sms',
  title: 'Send an SMS',
  input,
  output,
  idempotent: true,
  idempotencyHeader: 'I-Twilio-Idempotency-Token',
  docs: 'https://www.twilio.com/docs/messaging/api/message-resource#create-a-message-resource',
  run: (p, ctx) =>
    createMessage(ctx, {
      To: p.to,
      From: p.from,
      MessagingServiceSid: p.messagingServiceSid,
      Body: p.body,
      MediaUrl: p.mediaUrl,
      StatusCallback: p.statusCallback,
    }),
});
