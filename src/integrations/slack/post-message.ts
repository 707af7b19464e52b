import { z } from 'zod';
import { defineAction } from '../define';

const input = z
  .object({
    channel: z.string().min(1).describe('Channel id (C…) or name'),
    text: z.string().min(1).max(40_000),
    thread_ts: z
      .string()
      .regex(/^\d+\.\d+$/)
      .optional(),
    blocks: z.array(z.record(z.string(), z.unknown())).max(50).optional(),
    mrkdwn: z.boolean().optional(),
    unfurl_links: z.boolean().optional(),
    username: z.string().optional(),
    icon_emoji: z.string().optional(),
  })
  .strict();

const output = z.object({ channel: z.string(), ts: z.string() });

/** Posts a message to a channel (chat.postMessage). */
export default defineAction({
  key: 'post_message',
  title: 'Post a message',
  input,
  output,
  idempotent: false,
  docs: 'https://api.slack.com/methods/chat.postMessage',
  async run(p, { http }) {
    const res = await http.request<{ channel: string; ts: string }>({
      method: 'POST',
      path: '/chat.postMessage',
      json: p,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    return { channel: res.body.channel, ts: res.body.ts };
  },
});
