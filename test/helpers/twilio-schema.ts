import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './env';

const SPEC = path.join('shared', 'vendor-apis', 'twilio.json');

/**
 * Twilio's own OpenAPI description of the Calls create operation: ../shared/vendor-apis/twilio.json beside the checkout
 * (or beside a folder of worktrees holding it), or under SWITCHBOARD_SHARED_DIR.
 */
export function twilioSpecPath(): string {
  if (process.env.SWITCHBOARD_SHARED_DIR) return path.join(process.env.SWITCHBOARD_SHARED_DIR, 'vendor-apis', 'twilio.json');
  for (let dir = path.dirname(repoRoot); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, SPEC))) return path.join(dir, SPEC);
    if (dir === path.dirname(dir)) return path.resolve(repoRoot, '..', SPEC);
  }
}
const CALLS_PATH = '/2010-04-01/Accounts/{AccountSid}/Calls.json';

/** One request as it reached the wire. */
export interface WireRequest {
  method: string;
  path: string;
  contentType: string | undefined;
  body: string;
}

/**
 * A validator of Calls.json create requests against Twilio's requestBody schema, made strict: a field Twilio does not
 * define fails too (our client must not invent form fields). Throws, failing the test, when the spec file is absent.
 */
export function callsCreateValidator(): (request: WireRequest) => string[] {
  const specPath = twilioSpecPath();
  if (!existsSync(specPath)) {
    throw new Error(
      `Twilio's API description is missing at ${specPath}: the outgoing-request checks need ../shared/vendor-apis/twilio.json (or SWITCHBOARD_SHARED_DIR)`,
    );
  }
  const spec = JSON.parse(readFileSync(specPath, 'utf8'));
  const operation = spec.paths[CALLS_PATH].post;
  const schema = { ...operation.requestBody.content['application/x-www-form-urlencoded'].schema, additionalProperties: false };
  const accountSid = operation.parameters.find((p: { name: string }) => p.name === 'AccountSid').schema;
  const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: true });
  addFormats(ajv);
  // Twilio's own format names: an endpoint is an E.164 number, sip: address or client: identifier.
  ajv.addFormat('endpoint', /^(\+[1-9]\d{1,14}|sip:.+|client:.+)$/);
  ajv.addFormat('http-method', /^(GET|POST)$/);
  ajv.addFormat('twiml', /^<.*>$/s);
  const validateBody = ajv.compile(schema);
  const validateSid = ajv.compile(accountSid);
  const arrays = new Set(
    Object.entries(schema.properties as Record<string, { type?: string }>)
      .filter(([, p]) => p.type === 'array')
      .map(([k]) => k),
  );

  return (request) => {
    const problems: string[] = [];
    const match = /^\/2010-04-01\/Accounts\/([^/]+)\/Calls\.json$/.exec(request.path);
    if (request.method !== 'POST') problems.push(`method ${request.method}, expected POST`);
    if (!match) problems.push(`path ${request.path} is not ${CALLS_PATH}`);
    else if (!validateSid(decodeURIComponent(match[1]!))) problems.push(`AccountSid ${match[1]} ${ajv.errorsText(validateSid.errors)}`);
    if (!request.contentType?.startsWith('application/x-www-form-urlencoded')) problems.push(`content-type ${request.contentType}`);
    const form = new URLSearchParams(request.body);
    const object: Record<string, unknown> = {};
    for (const name of new Set(form.keys())) {
      const values = form.getAll(name);
      object[name] = arrays.has(name) || values.length > 1 ? values : values[0];
    }
    if (!validateBody(object)) problems.push(...validateBody.errors!.map((e) => `${e.instancePath || 'body'} ${e.message} ${JSON.stringify(e.params)}`));
    return problems;
  };
}

const READ_SPEC = path.join(repoRoot, 'test', 'fixtures', 'twilio-calls-read.json');
const LIST_PATH = '/2010-04-01/Accounts/{AccountSid}/Calls.json';
const FETCH_PATH = '/2010-04-01/Accounts/{AccountSid}/Calls/{Sid}.json';

/**
 * Checks of the Calls read operations (fetch a call, list calls) against Twilio's own description of them (trimmed from
 * twilio-oai at the commit ../shared/vendor-apis/twilio.json was taken from, which keeps only the creates): a request's
 * method, path and query parameters (strict: a parameter Twilio does not define fails), and an answer's body.
 */
export function callsReadValidator() {
  const spec = JSON.parse(readFileSync(READ_SPEC, 'utf8'));
  const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: true });
  addFormats(ajv);
  ajv.addFormat('phone-number', /^\+[1-9]\d{1,14}$/);
  ajv.addFormat('date-time-rfc-2822', /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} [+-]\d{4}$/);
  ajv.addFormat('currency', /^[A-Z]{3}$/);
  ajv.addFormat('uri-map', () => true);
  // Twilio's paging URIs are relative to https://api.twilio.com (its own examples), though typed `uri`.
  ajv.addFormat('uri', (u: string) => URL.canParse(u, 'https://api.twilio.com'));
  ajv.addSchema({ components: spec.components }, 'twilio');
  const rebase = (schema: unknown) => JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"twilio#/components/'));
  const operation = (p: string) =>
    spec.paths[p].get as {
      parameters: { name: string; in: string; schema: unknown }[];
      responses: Record<string, { content: Record<string, { schema: unknown }> }>;
    };
  const compiled = (p: string) => {
    const op = operation(p);
    const params = Object.fromEntries(op.parameters.map((q) => [q.name, { in: q.in, check: ajv.compile(rebase(q.schema)) }]));
    return { params, body: ajv.compile(rebase(op.responses['200']!.content['application/json']!.schema)) };
  };
  const ops = { list: compiled(LIST_PATH), fetch: compiled(FETCH_PATH) };
  const which = (p: string) => {
    const list = /^\/2010-04-01\/Accounts\/([^/?]+)\/Calls\.json$/.exec(p);
    const one = /^\/2010-04-01\/Accounts\/([^/?]+)\/Calls\/([^/?]+)\.json$/.exec(p);
    if (list) return { op: ops.list, path: { AccountSid: decodeURIComponent(list[1]!) } };
    if (one) return { op: ops.fetch, path: { AccountSid: decodeURIComponent(one[1]!), Sid: decodeURIComponent(one[2]!) } };
    return undefined;
  };
  const errors = (v: { errors?: unknown }) => ajv.errorsText(v.errors as never);
  return {
    /** Problems of a GET as sent: `path` with its query string. */
    request(r: { method: string; path: string }): string[] {
      const url = new URL(r.path, 'http://twilio');
      const found = which(url.pathname);
      if (!found) return [`path ${url.pathname} is neither ${LIST_PATH} nor ${FETCH_PATH}`];
      const problems = r.method === 'GET' ? [] : [`method ${r.method}, expected GET`];
      const given: [string, string][] = [...Object.entries(found.path), ...url.searchParams.entries()];
      for (const [name, value] of given) {
        const param = found.op.params[name];
        if (!param) problems.push(`parameter ${name} is not one Twilio defines`);
        else if (!param.check(value)) problems.push(`${name}=${value}: ${errors(param.check)}`);
      }
      return problems;
    },
    /** Problems of a 200 answer's body to a GET of `path`. */
    response(p: string, body: unknown): string[] {
      const found = which(new URL(p, 'http://twilio').pathname);
      if (!found) return [`path ${p} is not a Calls read`];
      return found.op.body(body) ? [] : [errors(found.op.body)];
    },
  };
}
