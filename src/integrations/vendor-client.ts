import { setTimeout as delay } from 'node:timers/promises';
import { request as undiciRequest } from 'undici';
import { BlockedAddressError } from '../net/ssrf';
import { guardedDispatcher, ssrfOptions } from '../net/outbound';
import { checkUrl } from '../net/ssrf';
import { VendorError, type Connection, type IntegrationDefinition, type QueryValue, type VendorHttp, type VendorRequest, type VendorResponse } from './define';

/** Settings of one vendor client (one integration, one connection, one run). */
export interface VendorClientOptions {
  integration: IntegrationDefinition;
  connection: Connection;
  /** A global base-URL override for the integration (configuration; tests point it at a local fake). */
  baseUrlOverride?: string;
  /** SSRF_ALLOWLIST CIDRs. */
  ssrfAllowlist?: string[];
  /** Exact `address:port` endpoints the guard lets through (the dev stack's vendor sandbox). */
  endpoints?: string[];
  timeoutMs?: number;
  /** Attempts per request, the first included. */
  maxAttempts?: number;
  /** First backoff delay; doubled per retry, with jitter. */
  retryBaseMs?: number;
  /** The longest Retry-After honoured in-process; a longer one fails the request as retryable (the run retries later). */
  maxRetryAfterMs?: number;
  maxResponseBytes?: number;
  /** Waits between attempts (tests inject one that records the delays). */
  sleep?: (ms: number) => Promise<void>;
  /** False for an action not safe to repeat: a request whose outcome is unknown is never sent again (`outcome_unknown`). */
  idempotent?: boolean;
  /** Called when a request that may have changed something at the vendor was sent (anything but reads and refusals). */
  onActed?: () => void;
}

const DEFAULTS = { timeoutMs: 15_000, maxAttempts: 3, retryBaseMs: 250, maxRetryAfterMs: 10_000, maxResponseBytes: 2 * 1024 * 1024 };

/** The base URL requests of this client are relative to: the connection's `base_url`, else the override, else the integration's. */
function resolveBaseUrl(integration: IntegrationDefinition, connection: Connection, override?: string): string {
  const own = connection.settings.base_url;
  if (own) return own;
  if (override) return override;
  return typeof integration.baseUrl === 'function' ? integration.baseUrl(connection) : integration.baseUrl;
}

function appendQuery(url: URL, query: Record<string, QueryValue> | undefined): void {
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    for (const v of Array.isArray(value) ? value : [value]) url.searchParams.append(key, String(v));
  }
}

function joinUrl(base: string, path: string): URL {
  return new URL(`${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`);
}

function formBody(form: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(form)) {
    if (value === undefined || value === null) continue;
    for (const v of Array.isArray(value) ? value : [value]) params.append(key, String(v));
  }
  return params.toString();
}

/** The vendor's own words about a failure, from the common error shapes, else the start of the body. */
export function vendorMessage(body: unknown): string {
  if (typeof body === 'string') return body.trim().slice(0, 300) || 'no details';
  if (body && typeof body === 'object') {
    const b = body as Record<string, unknown>;
    const nested = (v: unknown): string | undefined => {
      if (typeof v === 'string' && v) return v;
      // NestJS-style validation answers (HighLevel) list their messages: `message: ["phone must be …"]`.
      if (Array.isArray(v) && v.length > 0 && v.every((m) => typeof m === 'string')) return v.join('; ');
      if (v && typeof v === 'object') {
        const o = v as Record<string, unknown>;
        const said = nested(o.message) ?? nested(o.detail) ?? nested(o.title) ?? nested(o.description);
        // Field-level errors (Freshdesk `{field, message}`) name the field.
        return said && typeof o.field === 'string' ? `${o.field}: ${said}` : said;
      }
      return undefined;
    };
    const firstError = Array.isArray(b.errors) ? nested(b.errors[0]) : undefined;
    // Salesforce answers a bare array of errors: `[{message, errorCode, fields}]`.
    const firstItem = Array.isArray(body) ? nested(body[0]) : undefined;
    // Zendesk puts the reasons under `details: {field: [{description}]}`, beside a bare `error` code.
    const details = b.details && typeof b.details === 'object' ? Object.values(b.details as Record<string, unknown>)[0] : undefined;
    const detail = Array.isArray(details) ? nested(details[0]) : undefined;
    if (detail && typeof b.error === 'string') return `${b.error}: ${detail}`.slice(0, 300);
    const found = firstItem ?? nested(b.message) ?? nested(b.error_description) ?? nested(b.error) ?? firstError ?? nested(b.detail) ?? nested(b.title);
    if (found) return found.slice(0, 300);
    return JSON.stringify(body).slice(0, 300);
  }
  return 'no details';
}

function retryAfterMs(header: string | undefined): number | undefined {
  if (!header) return undefined;
  if (/^\d+(\.\d+)?$/.test(header.trim())) return Math.round(Number(header) * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

// Failures that prove the request reached nothing: no connection was made, or the vendor answered that it refused it.
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);
const SAFE_METHODS = new Set(['GET']);

const errorCode = (err: unknown): string | undefined => (err as { code?: string }).code ?? (err as { cause?: { code?: string } }).cause?.code;

/** True when an answer with this status proves the vendor did not act: a 4xx, a 503 (not served), an error in a 2xx body. */
const refusedStatus = (status: number) => status < 500 || status === 503;

/** The shared rule turning a vendor status into a VendorError (undefined for 2xx/3xx). */
function statusError(name: string, res: VendorResponse): VendorError | undefined {
  const { status } = res;
  if (status < 400) return undefined;
  const said = vendorMessage(res.body);
  if (status === 401 || status === 403) {
    return new VendorError('vendor_auth_failed', `${name} refused the credentials (${status}: ${said}); reconnect the integration`, false, status);
  }
  if (status === 404) return new VendorError('vendor_not_found', `${name} found nothing there (404: ${said})`, false, status);
  if (status === 429)
    return new VendorError('vendor_rate_limited', `${name} is rate limiting (429: ${said})`, true, status, retryAfterMs(res.headers['retry-after']));
  if (status >= 500)
    return new VendorError('vendor_unavailable', `${name} failed (${status}: ${said})`, true, status, retryAfterMs(res.headers['retry-after']));
  return new VendorError('vendor_rejected', `${name} rejected the request (${status}: ${said})`, false, status);
}

class TooLarge extends Error {}

/** The failure of a request that may have reached the vendor, for an action that must not send it again. */
function outcomeUnknown(name: string, failure: VendorError, partly = false): VendorError {
  const what = partly ? `an earlier request of this action may have taken effect at ${name}` : `the request may have reached ${name}`;
  const message = `outcome unknown: ${failure.message}; ${what}, and this action is not idempotent, so it was not sent again (check ${name} before running it again)`;
  return new VendorError('outcome_unknown', message, false, failure.status);
}

/** The shared vendor HTTP client (undici): base URL, auth, integration headers, timeouts, bounded retries, size cap. */
export class VendorClient implements VendorHttp {
  /** Requests sent to the vendor (every retry counts), for the run's metadata. */
  attempts = 0;
  /** True once a request that may have changed something at the vendor was sent. */
  private acted = false;
  private readonly opts: VendorClientOptions & typeof DEFAULTS;

  constructor(options: VendorClientOptions) {
    this.opts = { ...DEFAULTS, ...options };
  }

  /** Sends a request, retrying 429/5xx/network failures with backoff (Retry-After honoured up to a bound). */
  async request<T = unknown>(req: VendorRequest): Promise<VendorResponse<T>> {
    const { integration } = this.opts;
    const sleep = this.opts.sleep ?? ((ms: number) => delay(ms));
    const safe = SAFE_METHODS.has(req.method);
    for (let attempt = 1; ; attempt += 1) {
      let failure: VendorError;
      let refused: boolean;
      try {
        const res = await this.once(req);
        const error = statusError(integration.name, res) ?? integration.errorInBody?.(res);
        if (!error) {
          if (!safe) this.act();
          return res as VendorResponse<T>;
        }
        failure = error;
        refused = refusedStatus(res.status);
      } catch (err) {
        failure = this.asVendorError(err, req);
        refused = failure.type === 'ssrf_blocked' || NOT_CONNECTED.has(errorCode(err) ?? '');
      }
      if (!refused && !safe) this.act();
      if (!failure.retryable) throw failure;
      if (!refused && !safe && this.opts.idempotent === false) throw outcomeUnknown(integration.name, failure);
      if (attempt >= this.opts.maxAttempts) throw this.givenUp(failure);
      const backoff = this.opts.retryBaseMs * 2 ** (attempt - 1) * (1 + Math.random() * 0.2);
      const wait = failure.retryAfterMs ?? backoff;
      if (wait > this.opts.maxRetryAfterMs) throw this.givenUp(failure);
      await sleep(wait);
    }
  }

  private act(): void {
    this.acted = true;
    this.opts.onActed?.();
  }

  /**
   * A retryable failure the client stops retrying: the run would retry the whole action, so for one that is not
   * idempotent, after an earlier request of it may have acted, it is outcome_unknown instead.
   */
  private givenUp(failure: VendorError): VendorError {
    return this.acted && this.opts.idempotent === false ? outcomeUnknown(this.opts.integration.name, failure, true) : failure;
  }

  private asVendorError(err: unknown, req: VendorRequest): VendorError {
    const name = this.opts.integration.name;
    if (err instanceof VendorError) return err;
    if (err instanceof BlockedAddressError || (err as { cause?: unknown }).cause instanceof BlockedAddressError) {
      const message = err instanceof BlockedAddressError ? err.message : (err as { cause: Error }).cause.message;
      return new VendorError('ssrf_blocked', `the address is not allowed: ${message}`, false);
    }
    if (err instanceof TooLarge) return new VendorError('vendor_response_too_large', err.message, false);
    const code = (err as { code?: string }).code;
    const timedOut = (err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError';
    if (timedOut || code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_CONNECT_TIMEOUT') {
      return new VendorError('vendor_timeout', `${name} did not answer within ${req.timeoutMs ?? this.opts.timeoutMs} ms`, true);
    }
    return new VendorError('vendor_unavailable', `${name} could not be reached (${code ?? (err as Error).message})`, true);
  }

  private async once(req: VendorRequest): Promise<VendorResponse> {
    const { integration, connection } = this.opts;
    const auth = integration.auth.apply(connection);
    const base = resolveBaseUrl(integration, connection, this.opts.baseUrlOverride);
    const url = req.url ? new URL(req.url) : joinUrl(base, req.path ?? '/');
    // Credentials go only to the integration's own origin, never to an absolute URL elsewhere.
    const own = base !== '' && url.origin === new URL(base).origin;
    appendQuery(url, req.query);
    if (own) appendQuery(url, auth.query);
    checkUrl(url.toString(), ssrfOptions(this.opts.ssrfAllowlist, this.opts.endpoints));

    const headers: Record<string, string> = { accept: 'application/json', ...integration.headers, ...(own ? auth.headers : {}) };
    let body: string | Uint8Array | undefined;
    if (req.json !== undefined) {
      body = JSON.stringify(req.json);
      headers['content-type'] = 'application/json';
    } else if (req.form) {
      body = formBody(req.form);
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else if (req.body !== undefined) body = req.body;
    for (const [k, v] of Object.entries(req.headers ?? {})) headers[k.toLowerCase()] = v;

    const timeout = req.timeoutMs ?? this.opts.timeoutMs;
    this.attempts += 1;
    const res = await undiciRequest(url, {
      method: req.method,
      headers,
      body,
      dispatcher: guardedDispatcher(this.opts.ssrfAllowlist, this.opts.endpoints),
      headersTimeout: timeout,
      bodyTimeout: timeout,
      signal: AbortSignal.timeout(timeout),
    });
    const limit = this.opts.maxResponseBytes;
    const declared = Number(res.headers['content-length'] ?? 0);
    const chunks: Buffer[] = [];
    let size = 0;
    if (declared > limit) {
      res.body.destroy();
      throw new TooLarge(`${integration.name} answered ${declared} bytes, over the ${limit}-byte cap`);
    }
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > limit) {
        res.body.destroy();
        throw new TooLarge(`${integration.name} answered more than the ${limit}-byte cap`);
      }
      chunks.push(chunk as Buffer);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    const flat: Record<string, string> = {};
    for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
    let parsed: unknown = text;
    if (/\bjson\b/i.test(flat['content-type'] ?? '') && text) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    return { status: res.statusCode, headers: flat, body: parsed };
  }
}
