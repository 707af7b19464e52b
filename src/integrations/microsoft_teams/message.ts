import { z } from 'zod';

/** A Graph id segment (team, channel, chat, message ids hold `:`, `@` and `.` but never `/`). */
export const graphId = z
  .string()
  .min(1)
  .max(256)
  .regex(/^[^/?#\s]+$/);

/** The message body params shared by channel and chat messages. */
export const messageFields = {
  content: z.string().min(1).max(28_000).describe('Message text, or HTML when contentType is html'),
  contentType: z.enum(['text', 'html']).default('text'),
  subject: z.string().max(255).optional().describe('Message subject (channel posts)'),
};

/** Graph's chatMessage body from the params. */
export function chatMessage(p: { content: string; contentType: 'text' | 'html'; subject?: string }): Record<string, unknown> {
  return { ...(p.subject ? { subject: p.subject } : {}), body: { contentType: p.contentType, content: p.content } };
}

/** What both actions return from Graph's chatMessage. */
export const messageOutput = z.object({ id: z.string(), webUrl: z.string().nullable() });
