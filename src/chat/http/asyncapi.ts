import { z } from 'zod';
import { ClientFrame, CLOSE, MAX_FRAME_BYTES, ServerFrame } from '../webchat/frames';

/** A frame variant's JSON Schema (draft 7, which AsyncAPI 3's default schema format extends), without `$schema`. */
function payloadOf(variant: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(variant, { target: 'draft-7', io: 'input' }) as Record<string, unknown>;
  return schema;
}

/** The `type` literal a frame variant is told apart by. */
const typeOf = (variant: z.ZodObject): string => String((variant.shape.type as z.ZodLiteral).value);

function messagesOf(union: { options: readonly z.ZodType[] }, side: 'client' | 'server') {
  const out: Record<string, Record<string, unknown>> = {};
  for (const variant of union.options) {
    const type = typeOf(variant as z.ZodObject);
    out[`${side}_${type}`] = {
      name: type,
      title: `${type} (${side === 'client' ? 'client to server' : 'server to client'})`,
      contentType: 'application/json',
      ...(variant.description ? { summary: variant.description } : {}),
      payload: payloadOf(variant),
    };
  }
  return out;
}

const closeCodes = Object.entries(CLOSE)
  .map(([name, code]) => `${code} (${name})`)
  .join(', ');

/**
 * The web chat's WebSocket protocol as an AsyncAPI 3.0 document, built from the same zod schemas the server parses
 * client frames with and types its own frames by, so the document cannot drift from the frames on the wire.
 */
export function buildAsyncApi(wssUrl: string) {
  const url = new URL(wssUrl);
  const client = messagesOf(ClientFrame, 'client');
  const server = messagesOf(ServerFrame, 'server');
  const refs = (names: string[]) => names.map((n) => ({ $ref: `#/channels/conversation/messages/${n}` }));
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Switchboard web chat',
      version: '1.7',
      description:
        'One conversation per socket. After the upgrade the server sends session, chatowner and the opening message(s) ' +
        '(a resumed session gets what it missed instead), then answers each client message with a recv echo and the ' +
        `bot's messages. Text frames only, JSON, at most ${MAX_FRAME_BYTES} bytes. Close codes: ${closeCodes}.`,
    },
    defaultContentType: 'application/json',
    servers: {
      chat: { host: url.host, protocol: url.protocol.replace(/:$/, ''), description: 'The api process serves the WebSocket on its own port' },
    },
    channels: {
      conversation: {
        address: '/webchat/flow/{flowId}/session/{sessionId}/r/{reconnect}',
        title: 'A chat conversation',
        parameters: {
          flowId: { description: 'UUID of the flow' },
          sessionId: { description: 'The literal null for a new anonymous conversation, or a stored webchat-session.<uuid> to resume' },
          reconnect: {
            enum: ['true', 'false'],
            description: 'true: replay what came after ?last=<message id> (everything without it); false: repeat the latest bot message',
          },
        },
        messages: { ...client, ...server },
        bindings: {
          ws: {
            method: 'GET',
            query: { type: 'object', properties: { last: { type: 'string', description: 'Id of the last message the client has (with r/true)' } } },
          },
        },
      },
    },
    operations: {
      receiveClientFrames: {
        action: 'receive',
        channel: { $ref: '#/channels/conversation' },
        summary: 'Frames a client sends',
        messages: refs(Object.keys(client)),
      },
      sendServerFrames: {
        action: 'send',
        channel: { $ref: '#/channels/conversation' },
        summary: 'Frames the server sends',
        messages: refs(Object.keys(server)),
      },
    },
  };
}
