/** A request as a sandboxed vendor sees it: the path after the vendor's prefix, the body parsed. */
export interface VendorCall {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  /** Parsed JSON (or form) body; undefined when empty; the text when it does not parse. */
  body: unknown;
  /** The bearer token, or undefined when none was sent. */
  token: string | undefined;
}

/** An answer: status and JSON body. */
export interface VendorAnswer {
  status: number;
  body: unknown;
}

/** One sandboxed vendor: its path prefix and a handler keeping its own state (contacts, events). */
export interface SandboxVendor {
  integration: string;
  /** Where the vendor's base URL maps: a connection's base_url is the sandbox's origin + this prefix. */
  prefix: string;
  handle(call: VendorCall): VendorAnswer;
}

/** Where each sandboxed integration lives under the sandbox's origin (its base URL's path). */
export const SANDBOX_PREFIXES = { slack: '/slack/api', hubspot: '/hubspot', google_calendar: '/google_calendar' } as const;

/** The bearer token the sandbox's vendors take (what demo connections hold). */
export const SANDBOX_TOKEN = 'sandbox-token';

/** A plain object body, or undefined. */
export const objectBody = (body: unknown): Record<string, unknown> | undefined =>
  body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
