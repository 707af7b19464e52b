// The chat socket's silence rule on jest's clock: heartbeats keep a connection open however long it lasts, and a
// connection silent for the grace period is closed by the sweep's check, whatever the machine's load
// (test/e2e/webchat-limits.test.ts checks the close through a real socket and the api's one sweep).
import { EventEmitter } from 'node:events';
import type WebSocket from 'ws';
import { createLogger } from '../../src/telemetry/log';
import type { Conversation } from '../../src/chat/webchat/conversation';
import { ChatSocket } from '../../src/chat/webchat/chat-socket';
import { CLOSE } from '../../src/chat/webchat/frames';

/** The part of a ws socket a connection uses: its state, send, close and the close event. */
class Socket extends EventEmitter {
  readonly CONNECTING = 0;
  readonly OPEN = 1;
  readyState = this.OPEN;
  readonly sent: unknown[] = [];
  closed?: { code: number; reason: string };

  send(data: string): void {
    this.sent.push(JSON.parse(data));
  }

  close(code: number, reason: string): void {
    this.readyState = 3;
    this.closed = { code, reason };
    this.emit('close');
  }
}

const GRACE_MS = 1000;
const frame = (f: unknown) => Buffer.from(JSON.stringify(f));
const heartbeat = frame({ type: 'heartbeat', message: { stamp: '2026-01-01T10:00:00', tz: '+00:00' } });

function open() {
  const ws = new Socket();
  // Heartbeats and pings never reach the conversation.
  const conversation = {} as Conversation;
  const c = new ChatSocket(
    ws as unknown as WebSocket,
    conversation,
    { silenceGraceMs: GRACE_MS, framesPerSecond: 10, log: createLogger('silent', 'test') },
    'Anonymous',
  );
  // What ChatSockets' sweep does for every open connection, here after every step of the clock.
  const sweep = (ms: number) => {
    jest.advanceTimersByTime(ms);
    c.closeIfSilent(Date.now());
  };
  return { ws, c, sweep };
}

describe('a chat connection', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('stays open while heartbeats come within the grace period, for many grace periods', () => {
    const { ws, c, sweep } = open();
    for (let i = 0; i < 30; i++) {
      sweep(GRACE_MS - 1);
      c.receive(heartbeat, false);
    }
    expect(ws.closed).toBeUndefined();
    expect(ws.sent).toEqual([]);
  });

  it('is closed (4408) once no frame came for the grace period, counted from the last frame', () => {
    const { ws, c, sweep } = open();
    sweep(GRACE_MS / 2);
    c.receive(frame({ type: 'ping' }), false);
    expect(ws.sent).toEqual([{ type: 'pong' }]);
    sweep(GRACE_MS - 1);
    expect(ws.closed).toBeUndefined();
    sweep(1);
    expect(ws.closed).toEqual({ code: CLOSE.silent, reason: 'No frame within 1 s (send a heartbeat every 15 s)' });
  });

  it('is closed when no frame ever comes', () => {
    const { ws, sweep } = open();
    sweep(GRACE_MS - 1);
    expect(ws.closed).toBeUndefined();
    sweep(1);
    expect(ws.closed).toMatchObject({ code: CLOSE.silent });
  });
});
