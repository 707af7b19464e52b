import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** The request headers a carrier's callback carries that the api reads. */
const FORWARDED = ['content-type', 'x-twilio-signature', 'user-agent'];

/**
 * Stands between the carrier simulator and the api (TELEPHONY_CALLBACK_BASE_URL): forwards each request as it came
 * (method, path and query, signature, body) and answers with the api's answer, except while held, when requests wait
 * until release(). The simulator sends a placement's callbacks one after the other, so a held call stays in progress
 * however fast its script plays: a test checks what holds during a call without racing the simulator's clock.
 */
export async function startCallbackGate() {
  let target = '';
  let held: (() => void)[] | undefined;
  let refused: ((body: string) => boolean) | undefined;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const forward = async () => {
        const headers: Record<string, string> = {};
        for (const name of FORWARDED) if (typeof req.headers[name] === 'string') headers[name] = req.headers[name];
        try {
          const body = req.method === 'GET' || req.method === 'HEAD' ? undefined : Buffer.concat(chunks);
          const answer = await fetch(target + req.url, { method: req.method, headers, body });
          const text = Buffer.from(await answer.arrayBuffer());
          res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' }).end(text);
        } catch {
          res.writeHead(502).end();
        }
      };
      // As an api behind which Temporal or Postgres is down answers: 503, and the carrier never sends it again.
      if (refused?.(Buffer.concat(chunks).toString())) return void res.writeHead(503).end();
      if (held) held.push(() => void forward());
      else void forward();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Where requests go (the api's base URL, known once it listens). */
    forwardTo(url: string): void {
      target = url;
    },
    /** Holds every request from now until release(). */
    hold(): void {
      held ??= [];
    },
    /** Answers 503 to every request whose body matches, from now on (undefined: none). */
    refuse(match: ((body: string) => boolean) | undefined): void {
      refused = match;
    },
    /** Forwards the held requests, in order, and stops holding. */
    release(): void {
      const waiting = held ?? [];
      held = undefined;
      for (const go of waiting) go();
    },
    close(): Promise<void> {
      this.release();
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}
