import net from 'node:net';
import { Agent, buildConnector, request, type Dispatcher } from 'undici';
import { addressProblem, BlockedAddressError, checkUrl, endpointKey, guardedLookup, ssrfAllowlist, type SsrfOptions } from './ssrf';

/**
 * The one outbound guard for user-supplied URLs (webhooks, the proxy integration, callbacks, OAuth token endpoints):
 * the URL is checked before anything is sent (scheme, credentials, IP literals in any encoding), every DNS answer is
 * checked at connect time (no rebinding between check and connect), and each redirect hop is checked again.
 * SSRF_ALLOWLIST (CIDRs) is the one setting that opens private ranges; `endpoints` lets exact address:port pairs through
 * (the dev stack's vendor sandbox, for vendor requests only).
 */

/** Guard options from SSRF_ALLOWLIST's CIDRs, and exact `address:port` endpoints (the vendor sandbox) if any. */
export function ssrfOptions(allowlist: string[] | undefined, endpoints?: string[]): SsrfOptions {
  return {
    ...(allowlist && allowlist.length > 0 ? { allow: ssrfAllowlist(allowlist) } : {}),
    ...(endpoints && endpoints.length > 0 ? { endpoints } : {}),
  };
}

const dispatchers = new Map<string, Agent>();

/**
 * An undici Agent whose every connection is checked: an IP literal host against the guard, a name through a lookup
 * that refuses it when any DNS answer is blocked. Cached per allowlist (one connection pool per setting).
 */
export function guardedDispatcher(allowlist: string[] | undefined, endpoints?: string[]): Agent {
  return dispatcherFor(ssrfOptions(allowlist, endpoints));
}

function dispatcherFor(opts: SsrfOptions): Agent {
  const key = `${(opts.allow?.rules ?? []).join(',')}|${(opts.endpoints ?? []).join(',')}`;
  let agent = dispatchers.get(key);
  if (!agent) {
    const connector = buildConnector({ lookup: guardedLookup(opts) } as buildConnector.BuildOptions);
    agent = new Agent({
      keepAliveTimeout: 4_000,
      connect(options, callback) {
        const host = options.hostname.replace(/^\[|\]$/g, '');
        const exact = net.isIP(host) && opts.endpoints?.includes(endpointKey(host, options.port, options.protocol));
        const problem = net.isIP(host) && !exact ? addressProblem(host, opts) : undefined;
        if (problem) return callback(new BlockedAddressError(problem), null);
        return connector(options, callback);
      },
    });
    dispatchers.set(key, agent);
  }
  return agent;
}

export interface OutboundRequest {
  method: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  timeoutMs: number;
  /** Redirects to follow, each re-checked by the guard (0: none; a 3xx is then the answer). */
  maxRedirects?: number;
  /** Bytes of the body kept; more is a failure (or, with truncateResponse, the rest is dropped). */
  maxResponseBytes?: number;
  /** Keep the first maxResponseBytes of a longer body instead of failing (webhook receivers' answers are only a hint). */
  truncateResponse?: boolean;
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The URL that answered (after redirects). */
  url: string;
}

/** The response body was over OutboundRequest.maxResponseBytes. */
export class ResponseTooLargeError extends Error {
  readonly code = 'response_too_large';
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Sends a request to a user-supplied URL through the guard, following redirects only as far as each hop is allowed. */
export async function outboundRequest(input: string, req: OutboundRequest, allowlist: string[] | undefined): Promise<OutboundResponse> {
  return guardedOutboundRequest(input, req, ssrfOptions(allowlist));
}

/** outboundRequest with the guard's options already parsed from SSRF_ALLOWLIST. */
export async function guardedOutboundRequest(input: string, req: OutboundRequest, opts: SsrfOptions): Promise<OutboundResponse> {
  const dispatcher: Dispatcher = dispatcherFor(opts);
  let url = checkUrl(input, opts);
  let method = req.method;
  let body = req.body;
  const headers = { ...req.headers };
  for (let hop = 0; ; hop++) {
    const res = await request(url, {
      method: method as Dispatcher.HttpMethod,
      headers,
      body,
      dispatcher,
      headersTimeout: req.timeoutMs,
      bodyTimeout: req.timeoutMs,
      signal: AbortSignal.timeout(req.timeoutMs),
    });
    const location = res.headers.location;
    if (REDIRECTS.has(res.statusCode) && typeof location === 'string' && hop < (req.maxRedirects ?? 0)) {
      await res.body.dump();
      const next = checkUrl(new URL(location, url).toString(), opts);
      // Credentials stay with the origin they were meant for.
      if (next.origin !== url.origin) for (const h of Object.keys(headers)) if (/^(authorization|cookie|x-key|x-api-key)$/i.test(h)) delete headers[h];
      if (res.statusCode === 303 || ((res.statusCode === 301 || res.statusCode === 302) && method === 'POST')) {
        method = 'GET';
        body = undefined;
        for (const h of Object.keys(headers)) if (/^content-(type|length)$/i.test(h)) delete headers[h];
      }
      url = next;
      continue;
    }
    const limit = req.maxResponseBytes ?? 1024 * 1024;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > limit) {
        res.body.destroy();
        if (!req.truncateResponse) throw new ResponseTooLargeError(`response over ${limit} bytes`);
        chunks.push((chunk as Buffer).subarray(0, (chunk as Buffer).length - (size - limit)));
        break;
      }
      chunks.push(chunk as Buffer);
    }
    const flat: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
    return { status: res.statusCode, headers: flat, body: Buffer.concat(chunks).toString('utf8'), url: url.toString() };
  }
}
