import { z } from 'zod';
import { defineAction } from '../define';

const input = z
  .object({
    channel: z.string().min(1).describe('Channel id (C…) of the thread'),
    thread_ts: z
      .string()
      .regex(/^\d+\.\d+$/, 'a message ts such as 1700000000.000100')
      .describe("The parent message's ts"),
    text: z.string().min(1).max(40_000),
    reply_broadcast: z.boolean().default(false).describe('Also show the reply in the channel'),
  })
  .strict();

const output = z.object({ channel: z.string(), ts: z.string(), thread_ts: z.string() });

/** Replies in a message's thread (chat.postMessage with thread_ts). */
export default defineAction({
  key: 'post_thread_reply',
  title: 'Reply in a thread',
  input,
  output,
  idempotent: false,
  docs: 'https://api.slack.com/messaging/managing#threading',
  async run(p, { http }) {
    const json = { channel: p.channel, thread_ts: p.thread_ts, text: p.text, ...(p.reply_broadcast ? { reply_broadcast: true } : {}) };
    const res = await http.request<{ channel: string; ts: string }>({
      method: 'POST',
      path: '/chat.postMessage',
      json,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    return { channel: res.body.channel, ts: res.body.ts, thread_ts: p.thread_ts };
  },
});
