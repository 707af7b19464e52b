import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** As a receiver should: `t=<unix>,v1=<hex>[,v1=<hex>…]` (several v1 during a secret rotation), t within 5 minutes, any v1 matching. */
export function verifySignature(secret: string, header: string | undefined, body: string): boolean {
  const m = /^t=(\d+)((?:,v1=[0-9a-f]{64})+)$/.exec(header ?? '');
  if (!m || !secret) return false;
  if (Math.abs(Date.now() / 1000 - Number(m[1])) > 300) return false;
  const expected = createHmac('sha256', secret).update(`${m[1]}.${body}`).digest();
  return m[2]!
    .split(',v1=')
    .slice(1)
    .some((v1) => timingSafeEqual(expected, Buffer.from(v1, 'hex')));
}

/** One request the receiver got. */
export interface Delivery {
  path: string;
  eventId: string | undefined;
  signature: string | undefined;
  body: string;
  /** The signature checked against the secret (HMAC-SHA256 of "<t>.<body>", t within 5 minutes). */
  verified: boolean;
  /** What the receiver answered. */
  status: number;
}

/**
 * A third party receiving journey webhooks, as a local HTTP server: it verifies each signature itself, keeps a
 * ledger of every delivery and of the events it processed (deduplicated by event id), and answers per path with
 * scripted statuses (e.g. [500, 200]: fail once, then succeed).
 */
export class WebhookReceiver {
  readonly deliveries: Delivery[] = [];
  /** Event ids processed once each, in order. */
  readonly processed: string[] = [];
  private readonly scripts = new Map<string, number[]>();
  private readonly holding = new Map<string, (() => void)[]>();
  private server?: http.Server;
  secret = '';

  async start(): Promise<string> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const path = req.url ?? '/';
        const script = this.scripts.get(path);
        const status = script && script.length > 1 ? script.shift()! : (script?.[0] ?? 200);
        const eventId = req.headers['switchboard-event-id'] as string | undefined;
        const signature = req.headers['switchboard-signature'] as string | undefined;
        const verified = this.verify(signature, body);
        this.deliveries.push({ path, eventId, signature, body, verified, status });
        if (status < 300 && verified && eventId && !this.processed.includes(eventId)) this.processed.push(eventId);
        const answer = () => res.writeHead(status, { 'content-type': 'text/plain' }).end(status < 300 ? 'ok' : 'nope');
        // A held request is processed now and answered on release(): a sender killed meanwhile never hears back.
        const held = this.holding.get(path);
        if (held) held.push(answer);
        else answer();
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Answers these statuses in turn on a path; the last one repeats. */
  script(path: string, statuses: number[]): void {
    this.scripts.set(path, [...statuses]);
  }

  /** Holds the answers to requests on a path (they are still recorded and processed) until release(path). */
  hold(path: string): void {
    this.holding.set(path, []);
  }

  /** How many requests on a held path are waiting for their answer. */
  heldCount(path: string): number {
    return this.holding.get(path)?.length ?? 0;
  }

  /** Answers the held requests whose senders still listen, and stops holding the path. */
  release(path: string): void {
    const held = this.holding.get(path) ?? [];
    this.holding.delete(path);
    for (const answer of held) answer();
  }

  /** Deliveries per event id: the receiver's ledger. */
  ledger(path?: string): Map<string | undefined, number> {
    const counts = new Map<string | undefined, number>();
    for (const d of path ? this.on(path) : this.deliveries) counts.set(d.eventId, (counts.get(d.eventId) ?? 0) + 1);
    return counts;
  }

  on(path: string): Delivery[] {
    return this.deliveries.filter((d) => d.path === path);
  }

  private verify(header: string | undefined, body: string): boolean {
    return verifySignature(this.secret, header, body);
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server!.close(() => r()));
  }
}

/** Polls fn until it returns a value other than undefined/false, or fails after timeoutMs with the last value. */
export async function eventually<T>(fn: () => Promise<T | undefined | false>, timeoutMs = 20_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined && v !== false) return v;
      last = v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; last: ${last instanceof Error ? last.message : JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
