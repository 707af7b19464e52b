import type { Connection, ConnectionKind } from '../../src/integrations/define';
import { findIntegration } from '../../src/integrations/registry';
import type { FakeResponse, RecordedRequest } from './vendor-fake';
import { vendorSpec } from './vendor-spec';

/**
 * Placeholders a case may use in its connection, params and expected request: `{fake}` and `{hooks}` become the two fake
 * vendors' origins (a second origin for URLs the connection holds, such as a Teams Workflows webhook), `{requestId}` the
 * run's idempotency key (the endpoint's requestId).
 */
export interface CaseContext {
  fake: string;
  hooks: string;
  requestId: string;
}

/** The request a case expects the vendor to receive. */
export interface ExpectedRequest {
  /** Which fake receives it (default `fake`). */
  at?: 'fake' | 'hooks';
  method: string;
  /** Path on the fake, including the integration's base path (`/api/chat.postMessage` for Slack). */
  path: string;
  /** The whole query (default: none). */
  query?: Record<string, string | string[]>;
  /** Headers that must be present with these values; `null`: must be absent. Names lower-case. */
  headers?: Record<string, string | null>;
  /** The parsed body (JSON or form), compared whole; jest asymmetric matchers allowed. `undefined`: no body. */
  body?: unknown;
  /** The exact raw body, for bodies whose order matters (form encodings). */
  rawBody?: string;
  /** Turns the recorded request into the body compared with `body` and validated (multipart, encoded MIME). */
  bodyOf?: (req: RecordedRequest) => unknown | Promise<unknown>;
  /** A further reading of the body compared with `equals` (what an encoded payload says), validation untouched. */
  decoded?: { of: (req: RecordedRequest) => unknown; equals: unknown };
}

/** One request the action sends and the vendor's canned answer to it. */
export interface Exchange {
  request: ExpectedRequest;
  response: FakeResponse;
}

/** One run of one action: params (and call data), the exchanges in order, and the envelope's `data`. */
export interface ActionCase {
  action: string;
  /** Shown in the test name when an action has several cases. */
  name?: string;
  params: Record<string, unknown>;
  callData?: Record<string, unknown>;
  exchanges: Exchange[];
  data: unknown;
  /**
   * Why some request of the case is not validated against the integration's description: its operation is not in it.
   * Requests whose operation the description has are validated all the same, and at least one must be undescribed.
   */
  notDescribed?: string;
}

/** The vendor's machine-readable description in ../shared/vendor-apis/ the requests are validated against. */
export interface SpecRef {
  file: string;
  lenient?: boolean;
  /** A validator other than vendorSpec(file) (GraphQL SDL, a description patched for a known flaw). */
  validator?: () => (req: RecordedRequest) => string[];
  /** Reshapes the recorded request the way the description reads it (Stripe's bracketed form keys as nested objects). */
  prepare?: (req: RecordedRequest) => RecordedRequest;
  /** Drops verdicts the description gets wrong (documented where used). */
  filter?: (problems: string[]) => string[];
}

/** Every request case of one integration, with the workspace connection the cases run on. */
export interface IntegrationCases {
  integration: string;
  connection: { kind: ConnectionKind; secrets: Record<string, string>; settings?: Record<string, string> };
  /**
   * The path the integration's base URL override points at on the fake; default the path of the integration's fixed
   * base URL (`/api` for https://slack.com/api), or '' when the host depends on the connection. `null`: no override, the
   * connection itself holds the fake's address (Salesforce instance_url, ActiveCampaign account_url, the proxy's URL).
   */
  base?: string | null;
  spec?: SpecRef;
  cases: ActionCase[];
}

/** Replaces the placeholders in every string of a value (deeply; matchers and other objects pass through). */
export function fill<T>(value: T, ctx: CaseContext): T {
  if (typeof value === 'string')
    return value
      .replace(/\{fake\}/g, ctx.fake)
      .replace(/\{hooks\}/g, ctx.hooks)
      .replace(/\{requestId\}/g, ctx.requestId) as T;
  if (Array.isArray(value)) return value.map((v) => fill(v, ctx)) as T;
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, ctx)])) as T;
  }
  return value;
}

/** The base-URL override for the integration on the fake at `origin`, or undefined when the connection holds the host. */
export function baseOverride(set: IntegrationCases, origin: string): string | undefined {
  if (set.base === null) return undefined;
  if (set.base !== undefined) return `${origin}${set.base}`;
  const base = findIntegration(set.integration)?.baseUrl;
  return typeof base === 'string' && base !== '' ? `${origin}${new URL(base).pathname.replace(/\/$/, '')}` : origin;
}

/** The set's connection as runIntegrationAction takes it, `{fake}` (and `{hooks}`) standing for the fake at `origin`. */
export function caseConnection(set: IntegrationCases, origin: string, hooks = origin): Connection {
  const c = fill(set.connection, { fake: origin, hooks, requestId: '' });
  return { id: c.kind === 'none' ? null : 'conn-case', integration: set.integration, kind: c.kind, secrets: c.secrets, settings: c.settings ?? {} };
}

/** The params of the set's first case of `action`: failure tests start from the same data as the request cases. */
export function caseParams(set: IntegrationCases, action: string): Record<string, unknown> {
  const c = set.cases.find((x) => x.action === action);
  if (!c) throw new Error(`${set.integration} has no request case for ${action}`);
  return c.params;
}

/** The validator of a set's description, built once per set. */
const validators = new WeakMap<IntegrationCases, (req: RecordedRequest) => string[]>();
function validatorOf(set: IntegrationCases): ((req: RecordedRequest) => string[]) | undefined {
  if (!set.spec) return undefined;
  let check = validators.get(set);
  if (!check) {
    const { file, lenient, validator } = set.spec;
    check = validator ? validator() : vendorSpec(file, { lenient });
    validators.set(set, check);
  }
  return check;
}

/** The answers the fakes give for a case, in order, per fake. */
export function scriptedAnswers(c: ActionCase, ctx: CaseContext): Record<'fake' | 'hooks', FakeResponse[]> {
  const out: Record<'fake' | 'hooks', FakeResponse[]> = { fake: [], hooks: [] };
  for (const e of c.exchanges) out[e.request.at ?? 'fake'].push(fill(e.response, ctx));
  return out;
}

/**
 * Asserts the requests the fakes received are exactly the case's: method, path, query, the named headers, the body;
 * and, unless the case says its operation is not described, that each is valid against the vendor's description.
 */
export async function expectExchanges(
  set: IntegrationCases,
  c: ActionCase,
  received: Record<'fake' | 'hooks', RecordedRequest[]>,
  ctx: CaseContext,
): Promise<void> {
  const check = validatorOf(set);
  let undescribed = 0;
  for (const at of ['fake', 'hooks'] as const) {
    const wanted = c.exchanges.filter((e) => (e.request.at ?? 'fake') === at).map((e) => fill(e.request, ctx));
    const got = received[at];
    expect(got.map((r) => `${r.method} ${r.path}`)).toEqual(wanted.map((w) => `${w.method} ${w.path}`));
    for (const [i, want] of wanted.entries()) {
      const req = got[i]!;
      const label = `${set.integration}.${c.action} request ${i + 1}`;
      expect({ label, query: req.query }).toEqual({ label, query: want.query ?? {} });
      const headers = Object.fromEntries(Object.keys(want.headers ?? {}).map((h) => [h, req.headers[h] ?? null]));
      expect({ label, headers }).toEqual({ label, headers: want.headers ?? {} });
      const body = want.bodyOf ? await want.bodyOf(req) : req.body;
      expect({ label, body }).toEqual({ label, body: want.body });
      if (want.decoded) expect({ label, decoded: want.decoded.of(req) }).toEqual({ label, decoded: want.decoded.equals });
      if (want.rawBody !== undefined) expect({ label, rawBody: req.rawBody }).toEqual({ label, rawBody: want.rawBody });
      if (check) {
        const seen = want.bodyOf ? { ...req, body } : req;
        const problems = check(set.spec?.prepare ? set.spec.prepare(seen) : seen);
        // A case excused as undescribed still validates every request whose operation the description has.
        if (c.notDescribed && /no such operation/.test(problems[0] ?? '')) {
          undescribed += 1;
          continue;
        }
        expect({ label, problems: set.spec?.filter ? set.spec.filter(problems) : problems }).toEqual({ label, problems: [] });
      }
    }
  }
  // The excuse must stay true: at least one of the case's requests is an operation the description lacks.
  if (check && c.notDescribed)
    expect({ case: `${set.integration}.${c.action}`, undescribed: undescribed > 0 }).toEqual({ case: `${set.integration}.${c.action}`, undescribed: true });
}

/** `integration.action` for every case, the unit the registry's coverage check counts. */
export function caseKeys(sets: IntegrationCases[]): string[] {
  return sets.flatMap((s) => s.cases.map((c) => `${s.integration}.${c.action}`));
}

/** The registered actions (`integration.action`) that no case runs. */
export function actionsWithoutCase(registered: Array<{ key: string; actions: Array<{ key: string }> }>, sets: IntegrationCases[]): string[] {
  const covered = new Set(caseKeys(sets));
  return registered.flatMap((i) => i.actions.map((a) => `${i.key}.${a.key}`)).filter((k) => !covered.has(k));
}

/**
 * The described integrations (`{file, key}`) whose requests no case validates: none of the integration's sets names the
 * file, or every case of it is excused as undescribed.
 */
export function unvalidatedDescriptions(described: Array<{ file: string; key: string }>, sets: IntegrationCases[]): string[] {
  const validated = (key: string, file: string) => sets.some((s) => s.integration === key && s.spec?.file === file && s.cases.some((c) => !c.notDescribed));
  return described.filter(({ key, file }) => !validated(key, file)).map(({ key, file }) => `${key} (${file})`);
}
