import { z } from 'zod';
import { defineAction } from '../define';
import { recipient, sendMessage, sendOutput } from './send';

const input = z
  .object({
    to: recipient,
    body: z.string().min(1).max(4096).describe('Message text; free text reaches the user only within 24 hours of their last message (else use send_template)'),
    previewUrl: z.boolean().optional().describe('Show a preview of the first URL in the text'),
  })
  .strict();

/** Sends a free-form text message (inside the 24-hour customer-service window). */
export default defineAction({
  key: 'send_text',
  title: 'Send a text message',
  input,
  output: sendOutput,
  idempotent: false,
  docs: 'https://developers.facebook.com/docs/whatsapp/cloud-api/messages/text-messages',
  run: (p, ctx) => sendMessage(ctx, { to: p.to, type: 'text', text: { body: p.body, ...(p.previewUrl !== undefined ? { preview_url: p.previewUrl } : {}) } }),
});
