import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as the fake vendor received it. */
export interface RecordedRequest {
  method: string;
  /** Path without the query string. */
  path: string;
  query: Record<string, string | string[]>;
  /** Lower-cased header names. */
  headers: Record<string, string>;
  rawBody: string;
  /** JSON or form bodies parsed (form values repeated become arrays); otherwise the raw text. */
  body: unknown;
}

/** A scripted answer. */
export interface FakeResponse {
  status?: number;
  headers?: Record<string, string>;
  /** Objects are sent as JSON; strings as they are. */
  body?: unknown;
  /** Destroy the connection without answering (a network failure). */
  drop?: boolean;
}

/** A fixed answer, or a function of the request (async: it may hold the answer, e.g. while a worker is killed). */
type Responder = FakeResponse | ((req: RecordedRequest) => FakeResponse | Promise<FakeResponse>);

interface Route {
  method: string;
  path: string | RegExp;
  /** Consumed in order; the last one repeats. */
  responses: Responder[];
}

function parseBody(raw: string, contentType: string | undefined): unknown {
  if (!raw) return undefined;
  if (contentType?.includes('json')) {
    try {
      return JSON.parse(raw);
    } catch {
      return raw;
    }
  }
  if (contentType?.includes('application/x-www-form-urlencoded')) {
    const form = new URLSearchParams(raw);
    const out: Record<string, string | string[]> = {};
    for (const key of new Set(form.keys())) {
      const all = form.getAll(key);
      out[key] = all.length > 1 ? all : all[0]!;
    }
    return out;
  }
  return raw;
}

/**
 * A fake vendor: a real HTTP server on 127.0.0.1 (port 0) recording every request and answering scripted responses
 * per route; an unscripted route answers 404 JSON.
 */
export class VendorFake {
  readonly requests: RecordedRequest[] = [];
  private readonly routes: Route[] = [];
  /** Answers for any request, in order (the last repeats), ahead of the routes; see answerInOrder. */
  private sequence: Responder[] = [];
  private server?: http.Server;
  url = '';

  /** Starts listening; `url` is the origin (http://127.0.0.1:port). */
  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => this.answer(req, Buffer.concat(chunks).toString('utf8'), res));
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Scripts the answers for a route (replacing an earlier script for the same method and path). */
  on(method: string, path: string | RegExp, ...responses: Responder[]): this {
    const at = this.routes.findIndex((r) => r.method === method && String(r.path) === String(path));
    if (at >= 0) this.routes.splice(at, 1);
    this.routes.push({ method, path, responses: responses.length ? responses : [{ status: 200, body: {} }] });
    return this;
  }

  /** Answers every request with these, in order, the last repeating, whatever its route; no arguments: routes again. */
  answerInOrder(...responses: Responder[]): this {
    this.sequence = responses;
    return this;
  }

  /** The recorded requests for a method and path. */
  received(method: string, path: string | RegExp): RecordedRequest[] {
    return this.requests.filter((r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path)));
  }

  /** Forgets the recorded requests (scripts stay). */
  clear(): void {
    this.requests.length = 0;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private answer(req: http.IncomingMessage, rawBody: string, res: http.ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://fake');
    const query: Record<string, string | string[]> = {};
    for (const key of new Set(url.searchParams.keys())) {
      const all = url.searchParams.getAll(key);
      query[key] = all.length > 1 ? all : all[0]!;
    }
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    const recorded: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query,
      headers,
      rawBody,
      body: parseBody(rawBody, headers['content-type']),
    };
    this.requests.push(recorded);

    const route = this.routes.find((r) => r.method === recorded.method && (typeof r.path === 'string' ? r.path === recorded.path : r.path.test(recorded.path)));
    const scripted = this.sequence.length > 1 ? this.sequence.shift() : this.sequence[0];
    const routed = route
      ? route.responses.length > 1
        ? route.responses.shift()!
        : route.responses[0]!
      : { status: 404, body: { message: 'no such route on the fake' } };
    const responder = scripted ?? routed;
    void Promise.resolve(typeof responder === 'function' ? responder(recorded) : responder).then((answer) => this.send(req, res, answer));
  }

  private send(req: http.IncomingMessage, res: http.ServerResponse, answer: FakeResponse): void {
    if (res.destroyed) return;
    if (answer.drop) {
      req.socket.destroy();
      return;
    }
    const text = answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    const type = typeof answer.body === 'string' || answer.body === undefined ? 'text/plain' : 'application/json';
    res.writeHead(answer.status ?? 200, { 'content-type': type, ...answer.headers });
    res.end(text);
  }
}

/** Starts a fake vendor. */
export function startVendorFake(): Promise<VendorFake> {
  return new VendorFake().start();
}
