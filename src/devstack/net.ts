import { readFileSync } from 'node:fs';
import net from 'node:net';

/** The first port of the kernel's ephemeral range, where outgoing connections take their source ports (Linux). */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 2048 ? low : 32768;
  } catch {
    return 32768;
  }
}

/** True when nothing listens on 127.0.0.1:port (binding it works). */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

// Ports this process has handed out: it never gets the same one twice.
const handedOut = new Set<number>();
// The ephemeral range's first port, read once.
let ephemeral: number | undefined;

/**
 * A TCP port nobody listens on right now, for a process about to be started (below `below` when given). It is picked
 * at random under the kernel's ephemeral range: a port from listen(0), freed again, lies in that range and can be taken
 * as the source port of any outgoing connection before the process it was meant for binds it (a stack starting opens
 * many connections to Postgres and Temporal; the dev stack test once lost its api port so).
 */
export async function freePort(opts: { below?: number } = {}): Promise<number> {
  const high = Math.min((ephemeral ??= ephemeralLow()), opts.below ?? Infinity);
  const low = Math.max(1024, high - 12_000);
  for (let tries = 0; tries < 1000; tries++) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (handedOut.has(port) || !(await canListen(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free port in ${low}–${high - 1}`);
}

/** True when something accepts TCP connections at host:port. */
export function portOpen(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Polls check until it resolves true or the deadline passes. */
export async function waitFor(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
