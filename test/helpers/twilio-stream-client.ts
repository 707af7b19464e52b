import WebSocket from 'ws';
import { mulawBase64FromPcm, pcmFromMulawBase64 } from '../../src/voice/audio/frames';
import { outboundMessage } from '../../src/voice/protocol';

export interface Received {
  at: number;
  msg: any;
}

/**
 * Plays Twilio's side of a bidirectional Media Stream: `connected`, `start` with the TwiML's parameters, 20 ms `media`
 * frames in real time (silence unless the test speaks), `dtmf`, `stop`; it "plays" the audio it receives at 8 kHz
 * and echoes each mark once the audio before it has played, and on `clear` drops its buffer and returns the pending
 * marks at once, as Twilio does. Every message it gets is checked against the outbound shapes.
 */
export class TwilioStreamClient {
  readonly received: Received[] = [];
  readonly echoed: string[] = [];
  closeCode: number | null = null;
  closeReason = '';
  private ws!: WebSocket;
  private seq = 1;
  private chunk = 0;
  private timer: NodeJS.Timeout | undefined;
  private t0 = 0;
  /** What the next frames carry: silence (0), the test tone (1), or 160 samples of real 8 kHz audio. */
  private speech: (0 | 1 | Int16Array)[] = [];
  /** When (ms since start) the last frame with audible speech was sent: the end of the callee's speech. */
  lastVoicedAt = 0;
  /** Outbound audio not played yet (ms) and marks waiting behind it. */
  private buffered: ({ kind: 'audio'; ms: number } | { kind: 'mark'; name: string })[] = [];
  readonly closed: Promise<void>;
  private markClosed!: () => void;
  readonly streamSid = `MZ${Math.random().toString(16).slice(2).padEnd(32, '0').slice(0, 32)}`;

  constructor(
    private readonly url: string,
    readonly callSid: string,
    private readonly parameters: Record<string, string>,
    private readonly headers: Record<string, string> = {},
  ) {
    this.closed = new Promise((r) => (this.markClosed = r));
  }

  async open(o: { start?: Partial<Record<string, unknown>>; mediaFormat?: Record<string, unknown> } = {}): Promise<void> {
    this.ws = new WebSocket(this.url, { headers: this.headers });
    this.ws.on('close', (code, reason) => {
      this.closeCode = code;
      this.closeReason = reason.toString();
      clearInterval(this.timer);
      this.markClosed();
    });
    this.ws.on('message', (data) => this.onMessage(JSON.parse(data.toString())));
    await new Promise<void>((resolve, reject) => {
      this.ws.once('open', resolve);
      this.ws.once('error', reject);
      this.ws.once('unexpected-response', (_req, res) => reject(new Error(`handshake answered ${res.statusCode}`)));
    });
    this.t0 = performance.now();
    this.send({ event: 'connected', protocol: 'Call', version: '1.0.0' });
    this.send({
      event: 'start',
      sequenceNumber: String(this.seq++),
      start: {
        accountSid: 'AC00000000000000000000000000000000',
        streamSid: this.streamSid,
        callSid: this.callSid,
        tracks: ['inbound'],
        customParameters: this.parameters,
        mediaFormat: o.mediaFormat ?? { encoding: 'audio/x-mulaw', sampleRate: 8000, channels: 1 },
        ...o.start,
      },
      streamSid: this.streamSid,
    });
    this.timer = setInterval(() => this.tick(), 20);
  }

  private send(msg: unknown): void {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
  }

  /** Speaks for ms (a loud tone the fake VAD takes for speech), after what is already queued. */
  speak(ms: number): void {
    for (let i = 0; i < ms / 20; i++) this.speech.push(1);
  }

  /** Speaks real audio (8 kHz PCM, e.g. synthesised and resampled) after what is queued, 20 ms a frame in real time. */
  speakPcm(pcm: Int16Array): void {
    for (let at = 0; at < pcm.length; at += 160) {
      const frame = new Int16Array(160);
      frame.set(pcm.subarray(at, at + 160));
      this.speech.push(frame);
    }
  }

  /** Whether everything queued to speak has been sent. */
  get spoken(): boolean {
    return this.speech.length === 0;
  }

  /** Silence for ms after what is queued. */
  pause(ms: number): void {
    for (let i = 0; i < ms / 20; i++) this.speech.push(0);
  }

  dtmf(digit: string): void {
    this.send({ event: 'dtmf', streamSid: this.streamSid, sequenceNumber: String(this.seq++), dtmf: { track: 'inbound_track', digit } });
  }

  stop(): void {
    this.send({
      event: 'stop',
      sequenceNumber: String(this.seq++),
      stop: { accountSid: 'AC00000000000000000000000000000000', callSid: this.callSid },
      streamSid: this.streamSid,
    });
  }

  close(): void {
    this.ws.close();
  }

  /** Milliseconds since the stream started. */
  now(): number {
    return performance.now() - this.t0;
  }

  private tick(): void {
    const next = this.speech.shift() ?? 0;
    const pcm =
      next instanceof Int16Array
        ? next
        : Int16Array.from({ length: 160 }, (_, i) => (next === 1 ? Math.round(Math.sin(((this.chunk * 160 + i) * 2 * Math.PI * 300) / 8000) * 6000) : 0));
    let energy = 0;
    for (const v of pcm) energy += v * v;
    if (Math.sqrt(energy / pcm.length) > 300) this.lastVoicedAt = this.now();
    this.chunk++;
    this.send({
      event: 'media',
      sequenceNumber: String(this.seq++),
      media: { track: 'inbound', chunk: String(this.chunk), timestamp: String(this.chunk * 20), payload: mulawBase64FromPcm(pcm) },
      streamSid: this.streamSid,
    });
    // Play 20 ms of what we were sent.
    let budget = 20;
    while (this.buffered.length) {
      const head = this.buffered[0]!;
      if (head.kind === 'mark') {
        this.buffered.shift();
        this.echo(head.name);
        continue;
      }
      if (budget <= 0) break;
      const used = Math.min(budget, head.ms);
      head.ms -= used;
      budget -= used;
      if (head.ms <= 0) this.buffered.shift();
    }
  }

  private echo(name: string): void {
    this.echoed.push(name);
    this.send({ event: 'mark', sequenceNumber: String(this.seq++), streamSid: this.streamSid, mark: { name } });
  }

  private onMessage(msg: any): void {
    this.received.push({ at: this.now(), msg });
    const checked = outboundMessage.safeParse(msg);
    if (!checked.success) throw new Error(`not a Media Streams message: ${JSON.stringify(msg).slice(0, 200)}`);
    if (msg.event === 'media') this.buffered.push({ kind: 'audio', ms: (pcmFromMulawBase64(msg.media.payload).length / 8000) * 1000 });
    else if (msg.event === 'mark') this.buffered.push({ kind: 'mark', name: msg.mark.name });
    else if (msg.event === 'clear') {
      const pending = this.buffered.filter((b): b is { kind: 'mark'; name: string } => b.kind === 'mark');
      this.buffered = [];
      for (const m of pending) this.echo(m.name);
    }
  }

  /** The messages of one kind received. */
  of(event: string): Received[] {
    return this.received.filter((r) => r.msg.event === event);
  }
}
