// P6: idle chat connections held open on the api, each through the real handshake, session lookup and opening frames.
import WebSocket from 'ws';

/** Connects in flight at once while opening the idle sockets. */
const IN_FLIGHT = 100;
/** Clients (the widget) send a heartbeat every 15 s; an idle socket that did not would be closed after the grace. */
const HEARTBEAT_MS = 15_000;

/** The sockets held open and what went wrong on the way. */
export interface IdleHold {
  sockets: WebSocket[];
  /** Connects that failed: refused, closed or wrong before their three opening frames. */
  errors: number;
  /** Sockets that negotiated permessage-deflate (a zlib context per socket on the server). */
  deflate: number;
  first?: string;
  seconds: number;
  /** Sockets the server closed after their opening (they must stay open while held). */
  dropped(): { count: number; first?: string };
  /** Stops the heartbeats and closes every socket. */
  release(): Promise<void>;
}

/**
 * Opens n sockets (IN_FLIGHT at a time) to the URLs urlOf(i); each counts once its first three frames are session (for
 * the expected session), chatowner and message, in that order. Held sockets send heartbeats like the widget does.
 */
export async function holdIdle(n: number, urlOf: (i: number) => { url: string; session: string }, say: (line: string) => void): Promise<IdleHold> {
  const sockets: WebSocket[] = [];
  let errors = 0;
  let first: string | undefined;
  let dropped = 0;
  let firstDrop: string | undefined;
  let releasing = false;
  const started = Date.now();
  const fail = (why: string) => {
    errors++;
    first ??= why;
  };

  const open = (i: number) =>
    new Promise<void>((resolve) => {
      const { url, session } = urlOf(i);
      const ws = new WebSocket(url);
      const got: { type?: string; session_id?: string }[] = [];
      let settled = false;
      const settle = (why?: string) => {
        if (settled) return;
        settled = true;
        if (why) {
          fail(why);
          ws.terminate();
        } else sockets.push(ws);
        resolve();
      };
      ws.on('message', (d) => {
        if (settled) return;
        got.push(JSON.parse(d.toString()));
        if (got.length < 3) return;
        const types = got.map((f) => f.type).join(',');
        if (types !== 'session,chatowner,message') return settle(`opening frames ${types}`);
        if (got[0]!.session_id !== session) return settle(`session frame for ${got[0]!.session_id}`);
        settle();
      });
      ws.on('error', (err) => settle(err.message));
      ws.on('close', (code, reason) => {
        if (!settled) return settle(`closed ${code} ${reason.toString()} after ${got.length} frames`);
        if (releasing) return;
        dropped++;
        firstDrop ??= `closed ${code} ${reason.toString()}`;
      });
    });

  const beat = setInterval(() => {
    for (const s of sockets) if (s.readyState === WebSocket.OPEN) s.send('{"type":"heartbeat"}');
  }, HEARTBEAT_MS);
  let next = 0;
  let lastSaid = Date.now();
  const worker = async () => {
    while (next < n) {
      await open(next++);
      if (Date.now() - lastSaid > 10_000) {
        lastSaid = Date.now();
        say(`  ${sockets.length} held, ${errors} errors, ${((Date.now() - started) / 1000).toFixed(0)} s`);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, n) }, worker));
  const seconds = (Date.now() - started) / 1000;

  return {
    sockets,
    errors,
    first,
    seconds,
    deflate: sockets.filter((s) => s.extensions.includes('permessage-deflate')).length,
    dropped: () => ({ count: dropped, first: firstDrop }),
    async release() {
      releasing = true;
      clearInterval(beat);
      await Promise.all(sockets.map((s) => (s.readyState === WebSocket.CLOSED ? undefined : new Promise((resolve) => (s.once('close', resolve), s.close())))));
    },
  };
}
