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
  z.object({
    type: z.literal('message'),
    message: z.string().trim().min(1, 'message must not be empty').max(MAX_TEXT, `message is over ${MAX_TEXT} characters`),
  }),
  z.object({ type: z.literal('typing'), message: z.boolean().optional() }),
  z.object({ type: z.literal('heartbeat'), message: z.unknown().optional() }),
  z.object({ type: z.literal('ping') }),
]);
export type ClientFrame = z.infer<typeof ClientFrame>;

const Persona = { id: z.string(), profilepic: z.string().describe('Image URL (empty when none)'), name: z.string() };

/** Frames the server sends: the spec's opening three (section 6), then replies, echoes and notices. */
export const ServerFrame = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('session'),
    id: z.string().describe('Message id'),
    session_id: z.string().describe('webchat-session.<uuid>: store it to resume'),
  }),
  z.strictObject({ type: z.literal('chatowner'), ...Persona }).describe("The flow's persona; id is the flow id"),
  z.strictObject({ type: z.literal('message'), ...Persona, content: z.string() }).describe("The bot's message"),
  z.strictObject({ type: z.literal('recv'), ...Persona, content: z.string() }).describe("Echo of the user's own message (name: the lead's, or Anonymous)"),
  z.strictObject({ type: z.literal('end'), session_id: z.string() }).describe('The flow ended; the server closes with 1000 next'),
  z
    .strictObject({ type: z.literal('error'), message: z.string() })
    .describe('A frame refused or a turn that failed; the socket stays open unless a close follows'),
  z.strictObject({ type: z.literal('pong') }).describe('Answer to ping'),
]);
export type ServerFrame = z.infer<typeof ServerFrame>;

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
