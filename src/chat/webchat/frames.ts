import { z } from 'zod';
import { issueLines } from '../../core/validation';

/** Close codes the chat socket uses (4xxx: this protocol's own; reasons say the rest). */
export const CLOSE = {
  normal: 1000,
  goingAway: 1001,
  policy: 1008,
  tooBig: 1009,
  internal: 1011,
  restart: 1012,
  badUrl: 4400,
  forbidden: 4403,
  notFound: 4404,
  silent: 4408,
} as const;

/** Largest frame a client may send; larger ones close the socket with 1009. */
export const MAX_FRAME_BYTES = 64 * 1024;
const MAX_TEXT = 8000;

/** Frames a client may send. */
export const ClientFrame = z.discriminatedUnion('type', [
  z.object({ type: z.literal('message'), message: z.string().trim().min(1, 'message must not be empty').max(MAX_TEXT, `message is over ${MAX_TEXT} characters`) }),
  z.object({ type: z.literal('typing'), message: z.boolean().optional() }),
  z.object({ type: z.literal('heartbeat'), message: z.unknown().optional() }),
  z.object({ type: z.literal('ping') }),
]);
export type ClientFrame = z.infer<typeof ClientFrame>;

/** Parses a text frame; a string error when it is not a known, well-formed frame. */
export function parseClientFrame(text: string): ClientFrame | string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return 'Malformed frame: not JSON';
  }
  const parsed = ClientFrame.safeParse(json);
  if (parsed.success) return parsed.data;
  const type = (json as { type?: unknown } | null)?.type;
  if (typeof type !== 'string' || !['message', 'typing', 'heartbeat', 'ping'].includes(type)) {
    return `Unknown frame type ${JSON.stringify(type ?? null)}: expected message, typing, heartbeat or ping`;
  }
  return `Malformed ${type} frame: ${issueLines(parsed.error.issues, 'frame').join('; ')}`;
}
