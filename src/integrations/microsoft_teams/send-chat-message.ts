import { z } from 'zod';
import { defineAction } from '../define';
import { chatMessage, graphId, messageFields, messageOutput } from './message';

const { subject: _subject, ...fields } = messageFields;
const input = z.object({ chatId: graphId.describe('Chat id (19:…@thread.v2 or a one-on-one chat id)'), ...fields }).strict();

/** Sends a message in a one-on-one or group chat. */
export default defineAction({
  key: 'send_chat_message',
  title: 'Send a chat message',
  input,
  output: messageOutput,
  idempotent: false,
  docs: 'https://learn.microsoft.com/en-us/graph/api/chat-post-messages?view=graph-rest-1.0',
  async run(p, { http }) {
    const res = await http.request<{ id: string; webUrl?: string | null }>({
      method: 'POST',
      path: `/chats/${encodeURIComponent(p.chatId)}/messages`,
      json: chatMessage(p),
    });
    return { id: res.body.id, webUrl: res.body.webUrl ?? null };
  },
});
