import { z } from 'zod';
import { defineAction, VendorError } from '../define';

const input = z
  .object({
    chat_id: z.union([z.number().int(), z.string().regex(/^(-?\d+|@[A-Za-z0-9_]{5,32})$/)]).describe('Chat id, or @channelusername'),
    text: z.string().min(1).max(4096).describe('Message text (up to 4096 characters)'),
    parse_mode: z.enum(['MarkdownV2', 'HTML', 'Markdown']).optional(),
    disable_notification: z.boolean().optional().describe('Deliver silently'),
    message_thread_id: z.number().int().optional().describe('Forum topic to post in'),
    reply_to_message_id: z.number().int().optional().describe('Reply to this message'),
    disable_link_preview: z.boolean().optional(),
  })
  .strict();

const output = z.object({ message_id: z.number(), chat_id: z.number(), date: z.number() });

/** Sends a text message (sendMessage). */
export default defineAction({
  key: 'send_message',
  title: 'Send a message',
  input,
  output,
  idempotent: false,
  docs: 'https://core.telegram.org/bots/api#sendmessage',
  async run(p, { http, connection }) {
    const token = connection.secrets.bot_token ?? connection.secrets.api_key;
    if (!token || !/^\d+:[\w-]+$/.test(token))
      throw new VendorError('vendor_auth_failed', 'the telegram connection needs a bot_token (123456:ABC…); reconnect the integration', false);
    const { reply_to_message_id: replyTo, disable_link_preview: noPreview, ...rest } = p;
    const res = await http.request<{ ok: true; result: { message_id: number; chat: { id: number }; date: number } }>({
      method: 'POST',
      path: `/bot${token}/sendMessage`,
      json: {
        ...rest,
        ...(replyTo !== undefined ? { reply_parameters: { message_id: replyTo } } : {}),
        ...(noPreview !== undefined ? { link_preview_options: { is_disabled: noPreview } } : {}),
      },
    });
    const { result } = res.body;
    return { message_id: result.message_id, chat_id: result.chat.id, date: result.date };
  },
});
