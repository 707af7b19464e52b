/** One request the vendor sandbox took, as GET /ledger shows it (credentials redacted). */
export interface SandboxEntry {
  at: string;
  /** The integration key the request's path prefix names (slack, hubspot, google_calendar), or null for none. */
  integration: string | null;
  method: string;
  /** Path without the query string, as received (with the integration's prefix). */
  path: string;
  query: Record<string, string>;
  /** Lower-cased request headers; Authorization keeps its scheme only (`Bearer [redacted]`). */
  headers: Record<string, string>;
  /** The body as sent (text). */
  rawBody: string;
  /** JSON or form bodies parsed, else the text. */
  body: unknown;
  /** What the sandbox answered. */
  status: number;
  response: unknown;
}

/** Every request in arrival order (bounded: the oldest go first past the limit). */
export class SandboxLedger {
  readonly entries: SandboxEntry[] = [];
  constructor(private readonly limit = 10_000) {}

  add(entry: SandboxEntry): void {
    this.entries.push(entry);
    if (this.entries.length > this.limit) this.entries.splice(0, this.entries.length - this.limit);
  }
}
