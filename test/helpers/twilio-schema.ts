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
    throw new Error(`Twilio's API description is missing at ${specPath}: the outgoing-request checks need ../shared/vendor-apis/twilio.json (or SWITCHBOARD_SHARED_DIR)`);
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
  const arrays = new Set(Object.entries(schema.properties as Record<string, { type?: string }>).filter(([, p]) => p.type === 'array').map(([k]) => k));

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
