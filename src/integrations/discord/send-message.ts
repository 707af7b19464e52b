import { z } from 'zod';
import { defineAction, VendorError, type Connection } from '../define';

const embed = z
  .object({
    title: z.string().max(256).optional(),
    description: z.string().max(4096).optional(),
    url: z.url().optional(),
    color: z.number().int().min(0).max(0xffffff).optional(),
    fields: z
      .array(z.object({ name: z.string().min(1).max(256), value: z.string().min(1).max(1024), inline: z.boolean().optional() }).strict())
      .max(25)
      .optional(),
    footer: z
      .object({ text: z.string().min(1).max(2048) })
      .strict()
      .optional(),
    timestamp: z.iso.datetime({ offset: true }).optional(),
  })
  .strict();

const input = z
  .object({
    content: z.string().min(1).max(2000).optional().describe('Message text (up to 2000 characters)'),
    username: z.string().min(1).max(80).optional().describe("Overrides the webhook's name"),
    avatar_url: z.url().optional().describe("Overrides the webhook's avatar"),
    tts: z.boolean().optional(),
    embeds: z.array(embed).max(10).optional().describe('Rich embeds (up to 10)'),
    thread_id: z.string().regex(/^\d+$/).optional().describe("Post in this thread of the webhook's channel"),
    allowMentions: z.boolean().default(false).describe('Let @everyone, roles and users in the text ping people (off by default)'),
  })
  .strict()
  .refine((p) => p.content || p.embeds?.length, { message: 'give content or embeds', path: ['content'] });

const output = z.object({ id: z.string(), channel_id: z.string() });

/** The webhook id and token from the connection's webhook URL (https://discord.com/api/webhooks/{id}/{token}). */
function webhook(conn: Connection): { id: string; token: string } {
  const m = /\/webhooks\/(\d+)\/([\w-]+)\/?$/.exec(conn.secrets.webhook_url ?? '');
  if (!m)
    throw new VendorError(
      'vendor_auth_failed',
      'the discord connection needs a webhook_url like https://discord.com/api/webhooks/{id}/{token}; reconnect the integration',
      false,
    );
  return { id: m[1]!, token: m[2]! };
}

/** Sends a message through the webhook (Execute Webhook with wait=true, so Discord returns the message it created). */
export default defineAction({
  key: 'send_message',
  title: 'Send a message',
  input,
  output,
  idempotent: false,
  docs: 'https://discord.com/developers/docs/resources/webhook#execute-webhook',
  async run(p, { http, connection }) {
    const { id, token } = webhook(connection);
    const { thread_id: threadId, allowMentions, ...message } = p;
    const res = await http.request<{ id: string; channel_id: string }>({
      method: 'POST',
      path: `/webhooks/${id}/${token}`,
      query: { wait: true, thread_id: threadId },
      // Text from a call may contain "@everyone": without this, Discord would ping the whole server.
      json: { ...message, ...(allowMentions ? {} : { allowed_mentions: { parse: [] } }) },
    });
    return { id: res.body.id, channel_id: res.body.channel_id };
  },
});
