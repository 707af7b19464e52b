// The chat socket's silence timer on jest's clock: heartbeats keep a connection open however long it lasts, and a
// connection silent for the grace period is closed, whatever the machine's load (test/e2e/webchat-limits.test.ts
// checks the close through a real socket).
import { EventEmitter } from 'node:events';
import type WebSocket from 'ws';
import { createLogger } from '../../src/log';
import type { Conversation } from '../../src/webchat/conversation';
import { ChatConnection } from '../../src/webchat/connection';
import { CLOSE } from '../../src/webchat/frames';

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
  const c = new ChatConnection(ws as unknown as WebSocket, conversation, { silenceGraceMs: GRACE_MS, framesPerSecond: 10, userName: 'Anonymous', log: createLogger('silent', 'test') });
  return { ws, c };
}

describe('a chat connection', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('stays open while heartbeats come within the grace period, for many grace periods', () => {
    const { ws, c } = open();
    for (let i = 0; i < 30; i++) {
      jest.advanceTimersByTime(GRACE_MS - 1);
      c.receive(heartbeat, false);
    }
    expect(ws.closed).toBeUndefined();
    expect(ws.sent).toEqual([]);
  });

  it('is closed (4408) once no frame came for the grace period, counted from the last frame', () => {
    const { ws, c } = open();
    jest.advanceTimersByTime(GRACE_MS / 2);
    c.receive(frame({ type: 'ping' }), false);
    expect(ws.sent).toEqual([{ type: 'pong' }]);
    jest.advanceTimersByTime(GRACE_MS - 1);
    expect(ws.closed).toBeUndefined();
    jest.advanceTimersByTime(1);
    expect(ws.closed).toEqual({ code: CLOSE.silent, reason: 'No frame within 1 s (send a heartbeat every 15 s)' });
  });

  it('is closed when no frame ever comes', () => {
    const { ws } = open();
    jest.advanceTimersByTime(GRACE_MS - 1);
    expect(ws.closed).toBeUndefined();
    jest.advanceTimersByTime(1);
    expect(ws.closed).toMatchObject({ code: CLOSE.silent });
  });
});
