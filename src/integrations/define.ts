import type { z } from 'zod';

/**
 * The contract every integration is written in: one folder per integration (`src/integrations/<key>/index.ts`
 * exporting `defineIntegration(...)`) and one file per action (`defineAction(...)`). The runner (run.ts) resolves the
 * connection, builds the vendor HTTP client (http.ts) bound to the integration's base URL and auth, validates the
 * input with the action's zod schema, and calls `run`.
 */

/** HTTP methods a vendor request may use. */
export type VendorMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Query values; arrays repeat the key. */
export type QueryValue = string | number | boolean | undefined | null | Array<string | number | boolean>;

/** One request to a vendor, relative to the integration's base URL unless `url` is absolute. */
export interface VendorRequest {
  method: VendorMethod;
  /** Appended to the base URL (`/crm/v3/objects/contacts`); ignored when `url` is set. */
  path?: string;
  /** An absolute URL (e.g. a Discord webhook URL held by the connection); goes through the SSRF guard. */
  url?: string;
  query?: Record<string, QueryValue>;
  headers?: Record<string, string>;
  /** A JSON body (Content-Type: application/json). */
  json?: unknown;
  /** A form body (application/x-www-form-urlencoded); nested keys are written by the caller (`line_items[0][price]`). */
  form?: Record<string, QueryValue>;
  /** A raw body with its own Content-Type header. */
  body?: string | Uint8Array;
  /** Per-request timeout; defaults to the client's. */
  timeoutMs?: number;
}

/** A vendor's answer; `body` is parsed JSON when the response is JSON, else text. */
export interface VendorResponse<T = unknown> {
  status: number;
  headers: Record<string, string>;
  body: T;
}

/** The shared vendor HTTP client as an action sees it: base URL, auth, version headers and retries already applied. */
export interface VendorHttp {
  request<T = unknown>(req: VendorRequest): Promise<VendorResponse<T>>;
}

/**
 * A failure the vendor reported. `retryable` follows the shared rule (429/5xx/network: yes; other 4xx: no); `type` is
 * stable (vendor_rejected, vendor_auth_failed, vendor_not_found, vendor_rate_limited, vendor_unavailable,
 * vendor_timeout, vendor_response_too_large, vendor_error_in_body) and becomes the run's error type.
 */
export class VendorError extends Error {
  /** Requests sent to the vendor before the run gave up (set by the runner). */
  attempts?: number;

  constructor(
    readonly type: string,
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'VendorError';
  }
}

/** Decrypted connection data handed to an integration: secrets (tokens, keys) and non-secret settings (hosts, ids). */
export interface Connection {
  /** null when the integration needs no connection (`auth.kinds` includes 'none') and none is stored. */
  id: string | null;
  integration: string;
  kind: ConnectionKind;
  /** e.g. { access_token } (oauth2), { api_key }, { username, password } (basic). Never logged or stored in runs. */
  secrets: Record<string, string>;
  /** e.g. { subdomain, region, instance_url, base_url, account_sid }: per-connection hosts and defaults. */
  settings: Record<string, string>;
}

export type ConnectionKind = 'oauth2' | 'api_key' | 'basic' | 'none';

/** How requests to a vendor are authenticated, from a connection. */
export interface AuthSpec {
  /** Connection kinds the integration accepts (the first is the one the catalogue advertises). */
  kinds: ConnectionKind[];
  /** The auth part of every request; called for each request (an OAuth token may have been refreshed). */
  apply(conn: Connection): { headers?: Record<string, string>; query?: Record<string, string> };
  /** For kind oauth2: where refresh tokens are exchanged (a connection setting `token_url` overrides it). */
  oauth2?: { tokenUrl: string; scopes?: string[] };
}

/** What the runner gives an action besides its validated input. */
export interface ActionContext {
  http: VendorHttp;
  connection: Connection;
  /** Stable for the run (its requestId): actions send it as the vendor's idempotency header where one exists. */
  idempotencyKey: string;
  /** The request's call context (spec 4.6 `callData`, `transcript`, `context`), for actions that use it. */
  call: { callData?: Record<string, unknown>; transcript?: unknown; context?: unknown };
}

/** One action of an integration. */
export interface ActionDefinition<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  /** snake_case, the spec's `nodeParams.action`. */
  key: string;
  /**
   * The version of the action's params (default 1). A change to the params that would break a stored journey or chat
   * flow is a new definition with the same key and the next version, beside the old one, which keeps working: stored
   * steps are pinned to the version current when they were imported; a request without a version gets the latest.
   */
  version?: number;
  title: string;
  description?: string;
  /** Validates `nodeParams.params` (after custom fields are resolved); its JSON Schema is published by the catalogue. */
  input: I;
  /** The shape of `data` in the response envelope. */
  output: O;
  /**
   * True when running it twice has the effect of once (by the vendor's idempotency key or by its nature). An action
   * that is not is never sent again once an earlier try may have reached the vendor (the run fails `outcome_unknown`).
   */
  idempotent: boolean;
  /** For an action not idempotent in general: the inputs that are (`inputs` says which, for the catalogue). */
  idempotentFor?: { inputs: string; test(input: z.infer<I>): boolean };
  /** The vendor's idempotency header this action sends with ActionContext.idempotencyKey, if any. */
  idempotencyHeader?: string;
  /** The vendor documentation page the action follows. */
  docs: string;
  run(input: z.infer<I>, ctx: ActionContext): Promise<z.infer<O>>;
}

/** An integration: the spec's `automationType`. */
export interface IntegrationDefinition {
  /** snake_case, the spec's `automationType` (`slack`, `hubspot`, `google_calendar`). */
  key: string;
  name: string;
  auth: AuthSpec;
  /** The vendor's API origin (+ base path); a function when the host is per connection (subdomain, region). */
  baseUrl: string | ((conn: Connection) => string);
  /** Headers sent on every request (version headers: Notion-Version, cal-api-version, revision, Intercom-Version). */
  headers?: Record<string, string>;
  /** Detects a failure reported in a successful-looking response (Slack `ok:false`); returns the error or undefined. */
  errorInBody?(res: VendorResponse): VendorError | undefined;
  /** The vendor's API description (a file of shared/vendor-apis/) its requests are checked against in tests, if any. */
  apiDescription?: string;
  /** The action used when `nodeParams.action` is omitted (integrations with a single action, e.g. proxy). */
  defaultAction?: string;
  actions: ActionDefinition[];
}

/** True when the action may run again with this (validated) input after an unknown outcome. */
export function isIdempotent(action: ActionDefinition, input: unknown): boolean {
  return action.idempotent || (action.idempotentFor?.test(input) ?? false);
}

/** Declares an action; typed so `run` sees its validated input. */
export function defineAction<I extends z.ZodType, O extends z.ZodType>(def: ActionDefinition<I, O>): ActionDefinition {
  if (!/^[a-z][a-z0-9_]*$/.test(def.key)) throw new Error(`action key must be snake_case: ${def.key}`);
  return def as unknown as ActionDefinition;
}

/** An action's version (1 when it declares none). */
export const actionVersion = (action: ActionDefinition): number => action.version ?? 1;

/** Declares an integration; each action key and version is unique, and an action's versions run 1, 2, … without gaps. */
export function defineIntegration(def: IntegrationDefinition): IntegrationDefinition {
  if (!/^[a-z][a-z0-9_]*$/.test(def.key)) throw new Error(`integration key must be snake_case: ${def.key}`);
  const versions = new Map<string, number[]>();
  for (const action of def.actions) {
    const v = actionVersion(action);
    if (!Number.isInteger(v) || v < 1) throw new Error(`${def.key}: ${action.key} has version ${v}; versions are 1, 2, …`);
    const seen = versions.get(action.key) ?? [];
    if (seen.includes(v)) throw new Error(`${def.key}: duplicate action ${action.key}${v > 1 ? ` version ${v}` : ''}`);
    versions.set(action.key, [...seen, v]);
  }
  for (const [key, list] of versions) {
    if (list.sort((a, b) => a - b).some((v, i) => v !== i + 1)) throw new Error(`${def.key}: ${key} versions must run 1, 2, … (got ${list.join(', ')})`);
  }
  const seen = new Set(versions.keys());
  if (def.defaultAction && !seen.has(def.defaultAction)) throw new Error(`${def.key}: defaultAction ${def.defaultAction} is not an action`);
  return def;
}

/**
 * A failure found before anything is sent, never retried: `type` is unknown_integration, unknown_action,
 * invalid_params or custom_field_missing; `problems` lists each one (field paths for invalid params).
 */
export class ActionInputError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly problems: string[] = [],
  ) {
    super(message);
    this.name = 'ActionInputError';
  }
}
