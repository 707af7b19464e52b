import { z } from 'zod';
import { defineAction } from '../define';
import { chatMessage, graphId, messageFields, messageOutput } from './message';

const input = z
  .object({
    teamId: graphId.describe('Team (group) id'),
    channelId: graphId.describe('Channel id (19:…@thread.tacv2)'),
    replyToId: graphId.optional().describe('Post as a reply to this message id'),
    ...messageFields,
  })
  .strict();

/** Posts a message (or a reply) to a channel. */
export default defineAction({
  key: 'post_message',
  title: 'Post a channel message',
  input,
  output: messageOutput,
  idempotent: false,
  docs: 'https://learn.microsoft.com/en-us/graph/api/channel-post-messages?view=graph-rest-1.0',
  async run(p, { http }) {
    const base = `/teams/${encodeURIComponent(p.teamId)}/channels/${encodeURIComponent(p.channelId)}/messages`;
    const path = p.replyToId ? `${base}/${encodeURIComponent(p.replyToId)}/replies` : base;
    const res = await http.request<{ id: string; webUrl?: string | null }>({ method: 'POST', path, json: chatMessage(p) });
    return { id: res.body.id, webUrl: res.body.webUrl ?? null };
  },
});
