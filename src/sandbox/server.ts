import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody, send } from '../telephony/simulator/http';
import { googleCalendarSandbox } from './google-calendar';
import { hubspotSandbox } from './hubspot';
import { SandboxLedger, type SandboxEntry } from './ledger';
import { slackSandbox } from './slack';
import { SANDBOX_PREFIXES, type SandboxVendor, type VendorAnswer } from './vendor';

/** A running vendor sandbox. */
export interface VendorSandbox {
  url: string;
  port: number;
  ledger: SandboxLedger;
  /** The base URL of an integration in the sandbox (what a connection's base_url setting holds). */
  baseUrl(integration: string): string;
  close(): Promise<void>;
}

function parseBody(raw: string, contentType: string): unknown {
  if (!raw) return undefined;
  if (contentType.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(raw));
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** Starts the vendor sandbox: Slack, HubSpot and Google Calendar on loopback, each under its prefix, and GET /ledger. */
export async function startVendorSandbox(options: { port?: number; host?: string } = {}): Promise<VendorSandbox> {
  const host = options.host ?? '127.0.0.1';
  const vendors: SandboxVendor[] = [slackSandbox(), hubspotSandbox(), googleCalendarSandbox()];
  const ledger = new SandboxLedger();

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://sandbox');
    if (req.method === 'GET' && url.pathname === '/ledger') return send(res, 200, { requests: ledger.entries });
    const raw = await readBody(req);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
    // The ledger shows that credentials came, never what they were.
    if (headers.authorization) headers.authorization = headers.authorization.replace(/^(\S+\s+).*$/s, '$1[redacted]');
    const body = parseBody(raw, headers['content-type'] ?? '');
    const vendor = vendors.find((v) => url.pathname === v.prefix || url.pathname.startsWith(`${v.prefix}/`));
    const bearer = /^Bearer (\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const query = Object.fromEntries(url.searchParams);
    const answer: VendorAnswer = vendor
      ? vendor.handle({ method: req.method ?? 'GET', path: url.pathname.slice(vendor.prefix.length) || '/', query, headers, body, token: bearer })
      : { status: 404, body: { message: `no sandboxed vendor at ${url.pathname}; try ${vendors.map((v) => v.prefix).join(', ')}` } };
    const entry: SandboxEntry = {
      at: new Date().toISOString(),
      integration: vendor?.integration ?? null,
      method: req.method ?? 'GET',
      path: url.pathname,
      query,
      headers,
      rawBody: raw,
      body,
      status: answer.status,
      response: answer.body,
    };
    ledger.add(entry);
    send(res, answer.status, answer.body);
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch(() => send(res, 500, { message: 'sandbox error' }));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    url: origin,
    port,
    ledger,
    baseUrl: (integration) => `${origin}${SANDBOX_PREFIXES[integration as keyof typeof SANDBOX_PREFIXES] ?? ''}`,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
