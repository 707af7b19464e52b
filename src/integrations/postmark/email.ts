import { z } from 'zod';

const list = z.array(z.string().min(3).max(320)).max(50);

/** The envelope params both send actions share (Postmark takes comma-separated recipient lists, 50 at most). */
export const envelope = {
  from: z.string().min(3).max(320).describe('Sender signature ("Name <address>")'),
  to: list.min(1).describe('Recipients'),
  cc: list.optional(),
  bcc: list.optional(),
  replyTo: z.string().min(3).max(320).optional(),
  tag: z.string().max(1000).optional(),
  messageStream: z.string().min(1).max(100).optional().describe('Message stream id; defaults to "outbound"'),
  metadata: z.record(z.string().max(20), z.string().max(80)).optional(),
};

/** Postmark's PascalCase envelope fields. */
export function envelopeFields(p: {
  from: string;
  to: string[];
  cc?: string[];
  bcc?: string[];
  replyTo?: string;
  tag?: string;
  messageStream?: string;
  metadata?: Record<string, string>;
}): Record<string, unknown> {
  return {
    From: p.from,
    To: p.to.join(', '),
    ...(p.cc ? { Cc: p.cc.join(', ') } : {}),
    ...(p.bcc ? { Bcc: p.bcc.join(', ') } : {}),
    ...(p.replyTo ? { ReplyTo: p.replyTo } : {}),
    ...(p.tag ? { Tag: p.tag } : {}),
    ...(p.messageStream ? { MessageStream: p.messageStream } : {}),
    ...(p.metadata ? { Metadata: p.metadata } : {}),
  };
}

/** What Postmark returns for a sent message. */
export const sentOutput = z.object({ messageId: z.string(), submittedAt: z.string(), to: z.string() });

/** Reads Postmark's answer. */
export function sent(body: { MessageID: string; SubmittedAt: string; To: string }): z.infer<typeof sentOutput> {
  return { messageId: body.MessageID, submittedAt: body.SubmittedAt, to: body.To };
}
