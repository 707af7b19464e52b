import { z } from 'zod';
import { defineAction } from '../define';

const input = z
  .object({
    types: z
      .array(z.enum(['public_channel', 'private_channel', 'mpim', 'im']))
      .min(1)
      .default(['public_channel']),
    exclude_archived: z.boolean().default(true),
    limit: z.number().int().min(1).max(1000).default(200).describe('Channels per page'),
    cursor: z.string().min(1).optional().describe('next_cursor of the previous page'),
  })
  .strict();

const output = z.object({
  channels: z.array(z.object({ id: z.string(), name: z.string().nullable(), is_private: z.boolean(), is_member: z.boolean() })),
  next_cursor: z.string().nullable().describe('Pass as cursor for the next page; null on the last'),
});

interface SlackChannel {
  id: string;
  name?: string;
  is_private?: boolean;
  is_member?: boolean;
}

/** Lists one page of the workspace's channels (conversations.list). */
export default defineAction({
  key: 'list_channels',
  title: 'List channels',
  input,
  output,
  idempotent: true,
  docs: 'https://api.slack.com/methods/conversations.list',
  async run(p, { http }) {
    const query = { types: p.types.join(','), exclude_archived: p.exclude_archived, limit: p.limit, cursor: p.cursor };
    const res = await http.request<{ channels: SlackChannel[]; response_metadata?: { next_cursor?: string } }>({
      method: 'GET',
      path: '/conversations.list',
      query,
    });
    return {
      channels: res.body.channels.map((c) => ({ id: c.id, name: c.name ?? null, is_private: c.is_private ?? false, is_member: c.is_member ?? false })),
      next_cursor: res.body.response_metadata?.next_cursor || null,
    };
  },
});
