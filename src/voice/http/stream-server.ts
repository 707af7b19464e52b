import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Config } from '../../core/config';
import { voiceStreamUrl } from '../../core/config';
import { isUuid } from '../../core/ids';
import type { Db } from '../../db/pool';
import type { Logger } from '../../telemetry/log';
import { TERMINAL_STATUSES, type CallStatus } from '../../telephony/provider';
import { TWILIO_SIGNATURE_HEADER, verifyTwilioSignature } from '../../telephony/signature';
import { mulawEncode } from '../audio/mulaw';
import { pcmFromMulawBase64 } from '../audio/frames';
import { checkStreamCredential } from '../credential';
import { claimCallStream, closeCallStream, voiceCall, type VoiceCall } from '../db/streams';
import { FramePacer } from '../pacer';
import type { MediaStream, SessionFactory, StreamSession } from '../stream';
import { clearFrame, isTelephoneFormat, markFrame, mediaFrame, parseInbound, type StartMessage } from '../protocol';

/** Where Twilio opens media streams (VOICE_STREAM_URL's path). */
export const STREAM_PATH = '/telephony/twilio/stream';

/** Why a stream was refused (logged; Twilio gets a close and no audio). */
export type Refusal =
  | 'bad_signature'
  | 'no_start'
  | 'bad_format'
  | 'bad_parameters'
  | 'bad_credential'
  | 'expired_credential'
  | 'unknown_call'
  | 'call_ended'
  | 'wrong_call_sid'
  | 'stream_exists'
  | 'draining'
  | 'full';

export interface StreamServerOptions {
  config: Config;
  db: Db;
  logger: Logger;
  sessions: SessionFactory;
  /** Told of every refusal (tests, metrics). */
  onRefused?: (why: Refusal) => void;
}

const START_TIMEOUT_MS = 10_000;
/** WebSocket close codes: policy violation (refused), going away (draining). */
const REFUSED = 1008;
const GOING_AWAY = 1001;

/**
 * The Media Streams endpoint: a WebSocket server speaking Twilio's protocol. A stream is accepted once its `start`
 * proves it: μ-law 8 kHz mono, a credential in customParameters bound to the call (and its workspace and resume
 * flag) and not expired, a call that is known, not ended and placed as this CallSid, and no other stream holding the
 * call (in this process, then across processes through call_streams). A refused stream gets nothing and is closed.
 */
export class StreamServer {
  private readonly wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  private readonly live = new Map<string, { socket: WebSocket; close: (reason?: string) => void }>();
  private pending = 0;
  private draining = false;

  constructor(private readonly o: StreamServerOptions) {}

  get streams(): number {
    return this.live.size;
  }

  /** An HTTP upgrade for STREAM_PATH (the caller routes other paths). */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const refuseHttp = (status: number, why: Refusal) => {
      this.o.onRefused?.(why);
      socket.end(`HTTP/1.1 ${status} ${status === 403 ? 'Forbidden' : 'Service Unavailable'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
    };
    if (this.draining) return refuseHttp(503, 'draining');
    if (this.live.size + this.pending >= this.o.config.VOICE_MAX_STREAMS) return refuseHttp(503, 'full');
    const signature = req.headers[TWILIO_SIGNATURE_HEADER];
    if (signature !== undefined || this.o.config.VOICE_STREAM_SIGNATURE_REQUIRED) {
      const given = Array.isArray(signature) ? signature[0] : signature;
      if (!verifyTwilioSignature(this.o.config.TWILIO_AUTH_TOKEN, voiceStreamUrl(this.o.config), {}, given)) return refuseHttp(403, 'bad_signature');
    }
    this.pending++;
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws));
  }

  private accept(ws: WebSocket): void {
    let started = false;
    const refuse = (why: Refusal) => {
      this.o.onRefused?.(why);
      this.o.logger.info({ refused: why }, 'media stream refused');
      ws.close(REFUSED, why);
    };
    const timer = setTimeout(() => refuse('no_start'), START_TIMEOUT_MS);
    ws.on('close', () => {
      clearTimeout(timer);
      if (!started) this.pending--;
    });
    const onMessage = (data: Buffer, isBinary: boolean) => {
      if (isBinary) return;
      const msg = parseInbound(data.toString('utf8'));
      if (!msg || msg.event === 'connected') return;
      if (msg.event !== 'start') return; // nothing counts before start
      ws.off('message', onMessage);
      clearTimeout(timer);
      this.authorise(msg).then(
        (result) => {
          if (typeof result === 'string') return refuse(result);
          if (ws.readyState !== ws.OPEN) return;
          started = true;
          this.pending--;
          this.run(ws, msg, result.call, result.resume);
        },
        (err: Error) => {
          this.o.logger.warn({ err: err.message }, 'media stream start failed');
          ws.close(1011, 'internal error');
        },
      );
    };
    ws.on('message', onMessage);
  }

  private async authorise(msg: StartMessage): Promise<Refusal | { call: VoiceCall; resume: boolean }> {
    if (!isTelephoneFormat(msg.start.mediaFormat)) return 'bad_format';
    const p = msg.start.customParameters;
    const callId = (p.call_id ?? '').toLowerCase();
    if (!isUuid(callId) || (p.resume !== '0' && p.resume !== '1')) return 'bad_parameters';
    const resume = p.resume === '1';
    const call = await voiceCall(this.o.db, callId);
    if (!call || call.parent_id !== null) return 'unknown_call';
    const check = checkStreamCredential(this.o.config.TWILIO_AUTH_TOKEN, { callId, workspaceId: call.workspace_id, resume }, p.credential);
    if (check.status === 'invalid') return 'bad_credential';
    if (check.status === 'expired') return 'expired_credential';
    if (TERMINAL_STATUSES.has(call.status as CallStatus)) return 'call_ended';
    if (call.provider_sid !== null && call.provider_sid !== msg.start.callSid) return 'wrong_call_sid';
    if (this.live.has(callId) && !resume) return 'stream_exists';
    if (this.draining) return 'draining';
    const claimed = await claimCallStream(this.o.db, { callId, workspaceId: call.workspace_id, streamSid: msg.start.streamSid, nonce: check.nonce, resume });
    if (!claimed) return 'stream_exists';
    return { call, resume };
  }

  private run(ws: WebSocket, start: StartMessage, call: VoiceCall, resume: boolean): void {
    const sid = start.start.streamSid;
    const startedAt = performance.now();
    const send = (text: string) => {
      if (ws.readyState === ws.OPEN) ws.send(text);
    };
    const pacer = new FramePacer((item) => send(item.kind === 'media' ? mediaFrame(sid, item.mulaw) : markFrame(sid, item.name)));
    let endedReason: string | null = null;
    let finished = false;
    const close = (reason?: string) => {
      if (reason) endedReason = reason;
      pacer.close();
      if (ws.readyState === ws.OPEN) ws.close(1000, reason ?? 'done');
    };
    const previous = this.live.get(call.id);
    // A resumed stream replaces one this process still holds (Twilio has moved on from it).
    if (previous) previous.close();
    this.live.set(call.id, { socket: ws, close });
    const stream: MediaStream = {
      call,
      streamSid: sid,
      callSid: start.start.callSid,
      resume,
      startedAt,
      now: () => performance.now() - startedAt,
      play: (pcm) => pacer.push(Buffer.from(mulawEncode(pcm))),
      mark: (name) => pacer.mark(name),
      clear: () => {
        const dropped = pacer.clear();
        send(clearFrame(sid));
        return dropped;
      },
      get queuedMs() {
        return pacer.queuedMs;
      },
      close,
    };
    let session: StreamSession | undefined;
    const waiting: (() => void)[] = [];
    Promise.resolve()
      .then(() => this.o.sessions(stream))
      .then(
        (made) => {
          session = made;
          for (const f of waiting.splice(0)) f();
          if (finished) made.ended('closed');
        },
        (err: Error) => {
          this.o.logger.warn({ err: err.message }, 'media stream session failed to start');
          close();
        },
      );
    const withSession = (f: (s: StreamSession) => void) => (session ? f(session) : void waiting.push(() => f(session!)));
    const finish = (how: 'stop' | 'closed') => {
      if (finished) return;
      finished = true;
      pacer.close();
      if (this.live.get(call.id)?.socket === ws) this.live.delete(call.id);
      session?.ended(how);
      closeCallStream(this.o.db, call.id, sid, endedReason).catch((err: Error) => this.o.logger.warn({ err: err.message }, 'media stream close not recorded'));
    };
    ws.on('message', (data: Buffer, isBinary: boolean) => {
      if (isBinary || finished) return;
      const msg = parseInbound(data.toString('utf8'));
      if (!msg || (msg.event !== 'connected' && msg.streamSid !== sid)) return;
      switch (msg.event) {
        case 'media':
          if (msg.media.track === 'inbound') {
            const pcm = pcmFromMulawBase64(msg.media.payload);
            withSession((s) => s.media(pcm, msg.media.timestamp));
          }
          return;
        case 'dtmf': {
          const at = stream.now();
          return withSession((s) => s.dtmf(msg.dtmf.digit, at));
        }
        case 'mark':
          return withSession((s) => s.mark(msg.mark.name));
        case 'stop':
          finish('stop');
          ws.close(1000, 'stopped');
          return;
        default:
          return;
      }
    });
    ws.on('close', () => finish('closed'));
  }

  /** Stops taking streams; streams still open after graceMs are closed (Twilio follows the <Redirect> to another process). */
  async drain(graceMs: number): Promise<void> {
    this.draining = true;
    const until = Date.now() + graceMs;
    while (this.live.size && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    for (const { socket } of this.live.values()) socket.close(GOING_AWAY, 'draining');
    const cut = Date.now() + 1000;
    while (this.live.size && Date.now() < cut) await new Promise((r) => setTimeout(r, 20));
    for (const client of this.wss.clients) client.terminate();
    this.wss.close();
  }

  get isDraining(): boolean {
    return this.draining;
  }
}
