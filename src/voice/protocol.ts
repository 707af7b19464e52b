import { z } from 'zod';

/**
 * Twilio Media Streams' WebSocket messages (https://www.twilio.com/docs/voice/media-streams/websocket-messages), one
 * JSON text frame each. From Twilio: `connected` first, `start` once, then `media` every 20 ms, `dtmf`, `mark` (an
 * echo of ours) and `stop`; every message but `connected` carries sequenceNumber and streamSid. To Twilio, on a
 * bidirectional stream: `media`, `mark` and `clear`, nothing else. Twilio writes sequenceNumber, chunk and timestamp
 * as strings of digits.
 */
const digits = z.union([z.string().regex(/^\d+$/), z.number().int().min(0)]).transform(Number);
const streamSid = z.string().min(1).max(64);

const connectedMessage = z.object({ event: z.literal('connected'), protocol: z.string(), version: z.string() });
const startMessage = z.object({
  event: z.literal('start'),
  sequenceNumber: digits,
  streamSid,
  start: z.object({
    accountSid: z.string(),
    streamSid,
    callSid: z.string(),
    tracks: z.array(z.string()),
    customParameters: z.record(z.string(), z.string()).default({}),
    mediaFormat: z.object({ encoding: z.string(), sampleRate: z.number(), channels: z.number() }),
  }),
});
const mediaMessage = z.object({
  event: z.literal('media'),
  sequenceNumber: digits,
  streamSid,
  media: z.object({ track: z.string(), chunk: digits, timestamp: digits, payload: z.string().max(64_000) }),
});
const dtmfMessage = z.object({
  event: z.literal('dtmf'),
  sequenceNumber: digits,
  streamSid,
  dtmf: z.object({ track: z.string(), digit: z.string().regex(/^[0-9*#A-Da-dw]$/) }),
});
const markMessage = z.object({ event: z.literal('mark'), sequenceNumber: digits, streamSid, mark: z.object({ name: z.string().max(256) }) });
const stopMessage = z.object({
  event: z.literal('stop'),
  sequenceNumber: digits,
  streamSid,
  stop: z.object({ accountSid: z.string(), callSid: z.string() }),
});

export const inboundMessage = z.discriminatedUnion('event', [connectedMessage, startMessage, mediaMessage, dtmfMessage, markMessage, stopMessage]);
export type InboundMessage = z.infer<typeof inboundMessage>;
export type StartMessage = z.infer<typeof startMessage>;

/** What a bidirectional stream must announce: μ-law at 8 kHz, mono. */
export const isTelephoneFormat = (f: StartMessage['start']['mediaFormat']) => f.encoding === 'audio/x-mulaw' && f.sampleRate === 8000 && f.channels === 1;

/** One inbound frame, parsed; undefined for something that is not a Media Streams message. */
export function parseInbound(text: string): InboundMessage | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = inboundMessage.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}

// What we send, exactly as Twilio takes it (strict: no key Twilio does not document).
const outboundMedia = z.strictObject({ event: z.literal('media'), streamSid, media: z.strictObject({ payload: z.base64() }) });
const outboundMark = z.strictObject({ event: z.literal('mark'), streamSid, mark: z.strictObject({ name: z.string().min(1) }) });
const outboundClear = z.strictObject({ event: z.literal('clear'), streamSid });
export const outboundMessage = z.discriminatedUnion('event', [outboundMedia, outboundMark, outboundClear]);

export const mediaFrame = (sid: string, mulaw: Buffer) => JSON.stringify({ event: 'media', streamSid: sid, media: { payload: mulaw.toString('base64') } });
export const markFrame = (sid: string, name: string) => JSON.stringify({ event: 'mark', streamSid: sid, mark: { name } });
export const clearFrame = (sid: string) => JSON.stringify({ event: 'clear', streamSid: sid });

/** 20 ms of μ-law at 8 kHz: the frame size Twilio sends and we send back. */
export const FRAME_BYTES = 160;
export const FRAME_MS = 20;
