import path from 'node:path';
import { z } from 'zod';
import { parseCidr } from '../net/ssrf';
import { workerLimitFields, workerTaskQueuesField } from '../temporal/worker-queues';
import { TEMPORAL_ENV_SETTINGS, temporalConnectOptions, temporalProfile, TemporalSettingError, type TemporalEnv } from '../temporal/connection-config';

/** Where the embedded dev stack keeps its files (Temporal SQLite file, private Postgres cluster). */
export const defaultDataDir = path.resolve(__dirname, '..', '..', '.data');

const port = z.coerce.number().int().min(0).max(65535);
const bool = z.stringbool({ truthy: ['true', '1', 'yes'], falsy: ['false', '0', 'no'], case: 'sensitive' });

/** 32 bytes written as 64 hex digits or base64 (standard or url-safe); undefined for anything else. */
function parseKeyMaterial(text: string): Buffer | undefined {
  const t = text.trim();
  const bytes = /^[0-9a-fA-F]{64}$/.test(t) ? Buffer.from(t, 'hex') : /^[A-Za-z0-9+/_-]{43}=?$/.test(t) ? Buffer.from(t, 'base64') : undefined;
  return bytes?.length === 32 ? bytes : undefined;
}

const encryptionKey = z.string().transform((text, ctx) => {
  const key = parseKeyMaterial(text);
  if (!key) {
    ctx.addIssue({ code: 'custom', message: 'must be 32 bytes in base64 or hex (`openssl rand -base64 32`)' });
    return z.NEVER;
  }
  return key;
});

/**
 * Secrets with a public development default: anyone can read these values here, so production refuses them (set or
 * unset). ENCRYPTION_KEY and JWT_SECRET have no default at all; outside production they are generated per data dir.
 */
export const DEV_DEFAULT_SECRETS = { TWILIO_AUTH_TOKEN: 'simulator-auth-token' } as const;

const fields = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: port.default(3000),
  PUBLIC_BASE_URL: z.url().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** json: one JSON object a line; pretty: readable one-line logs; auto: pretty when stdout is a terminal. */
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DEV_POSTGRES_PORT: port.default(5433),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(500).default(20),
  TEMPORAL_ADDRESS: z
    .string()
    .regex(/^[^:\s]+:\d+$/, 'must be host:port')
    .default('127.0.0.1:7233'),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  // Temporal's client environment settings (src/temporal/connection-config.ts reads them with the SDK's loader).
  TEMPORAL_API_KEY: z.string().min(1).optional(),
  TEMPORAL_TLS: bool.optional(),
  TEMPORAL_TLS_CLIENT_CERT_PATH: z.string().min(1).optional(),
  TEMPORAL_TLS_CLIENT_CERT_DATA: z.string().min(1).optional(),
  TEMPORAL_TLS_CLIENT_KEY_PATH: z.string().min(1).optional(),
  TEMPORAL_TLS_CLIENT_KEY_DATA: z.string().min(1).optional(),
  TEMPORAL_TLS_SERVER_CA_CERT_PATH: z.string().min(1).optional(),
  TEMPORAL_TLS_SERVER_CA_CERT_DATA: z.string().min(1).optional(),
  TEMPORAL_TLS_SERVER_NAME: z.string().min(1).optional(),
  TEMPORAL_CONFIG_FILE: z.string().min(1).optional(),
  TEMPORAL_PROFILE: z.string().min(1).optional(),
  /** The api and worker register missing search attributes at start (needs operator rights); false where a setup job does. */
  TEMPORAL_REGISTER_SEARCH_ATTRIBUTES: bool.default(true),
  TEMPORAL_UI_PORT: port.default(8233),
  /** The Temporal UI answers link their runs to (`Link: <…/namespaces/{ns}/workflows/{id}>`); default: http://127.0.0.1:TEMPORAL_UI_PORT. */
  TEMPORAL_UI_URL: z.url({ protocol: /^https?$/ }).optional(),
  TEMPORAL_CLI_PATH: z.string().min(1).optional(),
  TEMPORAL_TASK_QUEUE_PREFIX: z
    .string()
    .regex(/^[a-z0-9-]*$/, 'lowercase letters, digits and dashes only')
    .default(''),
  SWITCHBOARD_DATA_DIR: z.string().min(1).default(defaultDataDir),
  WORKER_METRICS_PORT: port.default(9464),
  /** Serves the api's /metrics on a listener of its own (on METRICS_HOST), and not on the public port; 0: a free port. */
  METRICS_PORT: port.optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /** When set, /metrics answers only `Authorization: Bearer <METRICS_TOKEN>` (16 characters or more). */
  METRICS_TOKEN: z.string().min(16, 'at least 16 characters').optional(),
  WORKER_BUNDLE_PATH: z.string().min(1).optional(),
  WORKER_SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  WORKER_TASK_QUEUES: workerTaskQueuesField,
  /** The worker process's /healthz and /readyz (which queues it polls); 0: a free port. */
  WORKER_HEALTH_PORT: port.default(9465),
  ...workerLimitFields,
  TRUST_PROXY: bool.default(false),
  /** Runs an automations worker inside the api process: automation runs start eagerly on it (no server dispatch). */
  API_AUTOMATION_WORKER: bool.default(false),
  /** Comma-separated CIDRs: the only loopback/private addresses outbound requests (webhooks…) may reach. */
  SSRF_ALLOWLIST: z
    .string()
    .default('')
    .transform((text, ctx) => {
      const cidrs = text
        .split(',')
        .map((c) => c.trim())
        .filter(Boolean);
      const bad = cidrs.filter((c) => !parseCidr(c));
      if (bad.length) ctx.addIssue({ code: 'custom', message: `not a CIDR (e.g. 127.0.0.1/8, fd00::/8): ${bad.join(', ')}` });
      return cidrs;
    }),
  /** Vendor base URLs by integration, `slack=https://…,hubspot=https://…`: overrides the built-in ones (tests point them at fakes). */
  INTEGRATION_BASE_URLS: z
    .string()
    .default('')
    .transform((text, ctx) => {
      const out: Record<string, string> = {};
      for (const pair of text
        .split(',')
        .map((p) => p.trim())
        .filter(Boolean)) {
        const [key = '', url = ''] = pair.split(/=(.*)/s);
        if (!/^[a-z][a-z0-9_]*$/.test(key) || !/^https?:\/\/\S+$/.test(url))
          ctx.addIssue({ code: 'custom', message: `expected integration=url pairs: ${pair}` });
        else out[key] = url;
      }
      return out;
    }),
  /**
   * The vendor sandbox (Slack, HubSpot, Google Calendar on loopback): where `npm start` runs it and `switchboard demo`
   * points the demo's connections; outside production the outbound guard lets vendor requests reach exactly this
   * address and port. `off`: none.
   */
  VENDOR_SANDBOX_URL: z
    .union([z.literal('off'), z.url({ protocol: /^http$/ })])
    .default('http://127.0.0.1:3078')
    .transform((v) => (v === 'off' ? undefined : v)),
  /** Requests per window per API key and per client address (0: no limit), counted across every api process. */
  RATE_LIMIT_PER_KEY: z.coerce.number().int().min(0).default(1200),
  RATE_LIMIT_PER_ADDRESS: z.coerce.number().int().min(0).default(2400),
  RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** How often each api process reports its counts to the shared counters (and learns the others'). */
  RATE_LIMIT_SYNC_MS: z.coerce.number().int().min(10).max(10_000).default(100),
  /** Twilio-compatible Calls API: the embedded carrier simulator by default, https://api.twilio.com for real calls. */
  TELEPHONY_BASE_URL: z.url({ protocol: /^https?$/ }).default('http://127.0.0.1:3079'),
  TWILIO_ACCOUNT_SID: z
    .string()
    .regex(/^AC[0-9a-fA-F]{32}$/, 'must be AC followed by 32 hex digits')
    .default('AC00000000000000000000000000000000'),
  /** Signs status callbacks (X-Twilio-Signature) and authenticates API calls; the default only suits the simulator. */
  TWILIO_AUTH_TOKEN: z.string().min(8).default(DEV_DEFAULT_SECRETS.TWILIO_AUTH_TOKEN),
  /** Origin the provider posts status callbacks to (…/telephony/twilio/status); default: PUBLIC_BASE_URL, else HOST:PORT. */
  TELEPHONY_CALLBACK_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** The voice-agent runtime an answered call is connected to (Twilio's `Url`); default: <callback origin>/telephony/twilio/voice. */
  VOICE_AGENT_URL: z.url({ protocol: /^https?$/ }).optional(),
  /** The voice process (Twilio Media Streams): its port and host; 0: a free port. */
  VOICE_PORT: port.default(3081),
  VOICE_HOST: z.string().min(1).default('127.0.0.1'),
  /**
   * The Media Streams WebSocket URL the TwiML answer gives Twilio (wss on 443, no query string: Twilio refuses one);
   * default: the callback origin's /telephony/twilio/stream when TELEPHONY_CALLBACK_BASE_URL or PUBLIC_BASE_URL is set
   * (a proxy routes that path to the voice processes), else ws://VOICE_HOST:VOICE_PORT/telephony/twilio/stream.
   */
  VOICE_STREAM_URL: z
    .url({ protocol: /^wss?$/ })
    .refine((u) => !u.includes('?'), 'must not carry a query string (Twilio refuses one)')
    .optional(),
  /** How long the stream credential in a TwiML answer stays valid (seconds): Twilio opens the stream at once. */
  VOICE_STREAM_CREDENTIAL_TTL_S: z.coerce.number().int().min(10).max(120).default(90),
  /** Refuse a media stream whose handshake carries no X-Twilio-Signature (one that carries a wrong one is always refused). */
  VOICE_STREAM_SIGNATURE_REQUIRED: bool.default(false),
  /** On stop, how long open streams may go on before they are closed (Twilio then resumes the call on another voice process). */
  VOICE_DRAIN_MS: z.coerce.number().int().min(0).default(5000),
  /** Media streams one voice process holds at once; beyond, a new stream is refused (another instance takes the call's retry). */
  VOICE_MAX_STREAMS: z.coerce.number().int().min(1).default(200),
  /** A placed call the provider says nothing more about for this long ends failed (ended_reason provider_timeout). */
  CALL_PROVIDER_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(86_400).default(120),
  /** Web chat: the WebSocket's public port and host as POST /webchat/session reports them (default: from PUBLIC_BASE_URL). */
  WEBCHAT_PUBLIC_PORT: port.optional(),
  WEBCHAT_PUBLIC_HOST: z.string().min(1).optional(),
  /** A chat connection that sends nothing (no heartbeat, no message) for this long is closed (clients beat every 15 s). */
  WEBCHAT_SILENCE_GRACE_MS: z.coerce.number().int().min(1000).default(45_000),
  /** Frames per second a chat client may send (a burst of twice as many is allowed); beyond, an error frame and a close. */
  WEBCHAT_FRAMES_PER_SECOND: z.coerce.number().int().min(1).default(10),
  /** New chats (key-less POST /webchat/session, connects to session/null) per client address per RATE_LIMIT_WINDOW_SECONDS (0: no limit). */
  WEBCHAT_SESSIONS_PER_ADDRESS: z.coerce.number().int().min(0).default(60),
  /** Chat sockets one client address may hold open at once on one api process (0: no cap). */
  WEBCHAT_SOCKETS_PER_ADDRESS: z.coerce.number().int().min(0).default(20),
  /** A chat session's workflow ends after this long without a message; the conversation resumes from Postgres later. */
  CHAT_IDLE_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(30 * 60_000),
  /** Messages a chatSession run takes before it continues as new (Temporal accepts at most 2,000 Updates per run). */
  CHAT_UPDATES_PER_RUN: z.coerce.number().int().min(2).max(1999).default(1000),
  /** The largest file POST /v1/leads/import takes (bytes; beyond: 413). */
  LEAD_IMPORT_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(512 * 1_048_576),
  /** Records a lead import applies per transaction (one activity each). */
  LEAD_IMPORT_CHUNK_ROWS: z.coerce.number().int().min(1).max(10_000).default(1000),
  /** An OpenAI-compatible server for ai_reply nodes ({base}/chat/completions); unset: the scripted model. */
  CHAT_MODEL_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  CHAT_MODEL_API_KEY: z.string().min(1).optional(),
  CHAT_MODEL: z.string().min(1).default('gpt-4o-mini'),
  CHAT_MODEL_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  CHAT_MODEL_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  /** Signs the user JWTs login issues (HS256); unset outside production: a random secret kept in the data dir. */
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Also accept RS256/ES256 user JWTs signed by keys published at this JWKS URL (tokens issued elsewhere). */
  JWT_JWKS_URL: z.url({ protocol: /^https?$/ }).optional(),
  JWT_ISSUER: z.string().min(1).default('switchboard'),
  JWT_AUDIENCE: z.string().min(1).default('switchboard-automation'),
  /** The iss of JWKS-signed tokens, when their issuer is not JWT_ISSUER. */
  JWT_JWKS_ISSUER: z.string().min(1).optional(),
  JWT_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(86_400 * 30)
    .default(3600),
  /** Login attempts per window per client address (0: no limit). */
  LOGIN_RATE_LIMIT_PER_ADDRESS: z.coerce.number().int().min(0).default(30),
  /** Failed logins per window per email from one client address: what one address may guess (0: no limit). */
  LOGIN_RATE_LIMIT_PER_EMAIL: z.coerce.number().int().min(0).default(10),
  /** Failed logins per window per email from all addresses together: the ceiling of a spread-out guess (0: no limit). */
  LOGIN_RATE_LIMIT_PER_EMAIL_ALL_ADDRESSES: z.coerce.number().int().min(0).default(100),
  LOGIN_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  /** AES-256-GCM key for secrets at rest (32 bytes, base64 or hex); unset outside production: generated into the data dir. */
  ENCRYPTION_KEY: encryptionKey.optional(),
  /** Former keys (comma-separated), still accepted for reading while data is re-encrypted under ENCRYPTION_KEY. */
  ENCRYPTION_KEYS_PREVIOUS: z
    .string()
    .default('')
    .transform((text, ctx) => {
      const keys = text
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean);
      const parsed = keys.map(parseKeyMaterial);
      if (parsed.some((k) => !k)) ctx.addIssue({ code: 'custom', message: 'each key must be 32 bytes in base64 or hex' });
      return parsed.filter((k): k is Buffer => !!k);
    }),
  /**
   * Where an OAuth flow may send the browser when it ends (comma-separated URLs; a return_url must start with one of
   * them, on a path boundary). Unset: no return_url is accepted and flows end on a small page.
   */
  OAUTH_RETURN_URLS: z
    .string()
    .default('')
    .transform((text, ctx) => {
      const urls = text
        .split(',')
        .map((u) => u.trim())
        .filter(Boolean);
      const bad = urls.filter((u) => !/^https?:\/\/[^/\s?#]+(\/[^\s?#]*)?$/.test(u));
      if (bad.length) ctx.addIssue({ code: 'custom', message: `not an http(s) URL without query or fragment: ${bad.join(', ')}` });
      return urls;
    }),
  /** The least time between two vendor tests of one connection (POST /v1/connections/{id}/test; 0: no limit). */
  CONNECTION_TEST_COOLDOWN_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
  /** How long a started OAuth flow may take before its state is refused. */
  OAUTH_STATE_TTL_SECONDS: z.coerce.number().int().min(60).max(3600).default(600),
  /** Authenticates the Temporal codec endpoint (/temporal-codec); unset outside production: generated into the data dir. */
  CODEC_SERVER_TOKEN: z
    .string()
    .regex(/^[A-Za-z0-9_-]{32,}$/, 'must be at least 32 letters, digits, - or _ (`openssl rand -hex 32`)')
    .optional(),
  /**
   * Whether the codec endpoint also serves /encode (payloads sealed under the key ring for whoever holds the token).
   * Reading histories needs only /decode; off by default (docs/operations-security.md).
   */
  CODEC_SERVER_ENCODE: bool.default(false),
  /** Comma-separated origins (the Temporal UI's) allowed to call the codec endpoint from a browser; default: the dev UI. */
  CODEC_SERVER_CORS_ORIGINS: z
    .string()
    .optional()
    .transform((text, ctx) => {
      const origins = (text ?? '')
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean);
      const bad = origins.filter((o) => !/^https?:\/\/[^/\s]+$/.test(o));
      if (bad.length) ctx.addIssue({ code: 'custom', message: `not an origin (scheme://host[:port]): ${bad.join(', ')}` });
      return origins.length ? origins : undefined;
    }),
});

const schema = fields.superRefine((c, ctx) => {
  if (c.NODE_ENV !== 'production') return;
  // Production never falls back to a generated key: a lost data dir would lose every sealed secret. (JWT_SECRET is
  // checked where tokens are issued, the api, as the worker has no use for it.)
  if (!c.ENCRYPTION_KEY)
    ctx.addIssue({ code: 'custom', path: ['ENCRYPTION_KEY'], message: 'required in production (32 random bytes, base64 or hex: `openssl rand -base64 32`)' });
  for (const [name, devValue] of Object.entries(DEV_DEFAULT_SECRETS)) {
    if (c[name as keyof typeof DEV_DEFAULT_SECRETS] !== devValue) continue;
    ctx.addIssue({ code: 'custom', path: [name], message: 'required in production: its development default is public; set your own secret' });
  }
});

/** The configuration; oauthEnv holds the OAUTH_<INTEGRATION>_<SETTING> variables (src/connections/oauth/clients.ts reads them). */
export type Config = z.infer<typeof schema> & { oauthEnv?: Record<string, string> };

const OAUTH_CLIENT_VARIABLE = /^OAUTH_[A-Z][A-Z0-9_]*_(CLIENT_ID|CLIENT_SECRET|SCOPES|AUTHORIZE_URL|TOKEN_URL|REVOKE_URL|TENANT)$/;

// Their values are never repeated in an error message (it ends up in logs).
const SECRET_VARIABLES = new Set([
  'JWT_SECRET',
  'ENCRYPTION_KEY',
  'ENCRYPTION_KEYS_PREVIOUS',
  'TWILIO_AUTH_TOKEN',
  'CODEC_SERVER_TOKEN',
  'TEMPORAL_API_KEY',
  'TEMPORAL_TLS_CLIENT_KEY_DATA',
  'METRICS_TOKEN',
]);

/** A configuration value that failed validation; the message names the variable. */
export class ConfigError extends Error {
  constructor(readonly issues: { variable: string; problem: string }[]) {
    super('Invalid configuration:\n' + issues.map((i) => `  ${i.variable}: ${i.problem}`).join('\n'));
    this.name = 'ConfigError';
  }
}

/** Every setting's variable name, as declared above (docs/configuration.md documents each; a test checks). */
export const SETTING_NAMES: readonly string[] = Object.keys(fields.shape);

/** Reads and validates configuration from environment variables. Empty strings count as unset. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const input: Record<string, string> = {};
  for (const key of Object.keys(fields.shape)) {
    const value = env[key];
    if (value !== undefined && value !== '') input[key] = value;
  }
  const settingError = (err: unknown): never => {
    if (err instanceof TemporalSettingError) throw new ConfigError([{ variable: err.setting, problem: err.message }]);
    throw err;
  };
  // A Temporal config file's profile gives the address and namespace the environment does not.
  try {
    const fromFile = temporalProfile(input, { fileOnly: true });
    if (fromFile.address) input.TEMPORAL_ADDRESS ??= fromFile.address;
    if (fromFile.namespace) input.TEMPORAL_NAMESPACE ??= fromFile.namespace;
  } catch (err) {
    settingError(err);
  }
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => ({
        variable: String(issue.path[0] ?? '?'),
        problem: SECRET_VARIABLES.has(String(issue.path[0])) ? issue.message : `${issue.message} (got ${JSON.stringify(input[String(issue.path[0])] ?? null)})`,
      })),
    );
  }
  // Certificates and keys are read and checked now: a bad one stops start-up naming its setting.
  try {
    temporalConnectOptions(temporalEnv(parsed.data));
  } catch (err) {
    settingError(err);
  }
  const oauthEnv: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value && OAUTH_CLIENT_VARIABLE.test(name)) oauthEnv[name] = value;
  return { ...parsed.data, oauthEnv };
}

/** Temporal's settings of a configuration, as Temporal's loader reads them (strings, like the environment). */
export function temporalEnv(config: Pick<Config, (typeof TEMPORAL_ENV_SETTINGS)[number]>): TemporalEnv {
  const env: TemporalEnv = {};
  for (const key of TEMPORAL_ENV_SETTINGS) {
    const value = config[key];
    if (value !== undefined) env[key] = String(value);
  }
  return env;
}

/** For process entry points: the configuration, or exit 2 printing which variables are wrong. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (err) {
    console.error((err as Error).message);
    process.exit(2);
  }
}

/** The dev stack's own database URL (the private cluster `npm start` runs). */
export const devDatabaseUrl = (config: Pick<Config, 'DEV_POSTGRES_PORT'>) =>
  `postgres://switchboard:switchboard@127.0.0.1:${config.DEV_POSTGRES_PORT}/switchboard`;

/** Public addresses the service is reachable at, derived from HOST/PORT unless PUBLIC_BASE_URL is set. */
export function publicUrls(config: Pick<Config, 'HOST' | 'PORT' | 'PUBLIC_BASE_URL'>) {
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  const origin = (config.PUBLIC_BASE_URL ?? `http://${host}:${config.PORT}`).replace(/\/+$/, '');
  const ws = origin.replace(/^http/, 'ws');
  return {
    base_url: `${origin}/v1`,
    integrations_url: origin,
    hooks_url: origin,
    wss_url: ws,
  };
}

/** Where the provider posts a call's status callbacks, and the voice-agent URL answered calls connect to. */
export function telephonyUrls(config: Pick<Config, 'HOST' | 'PORT' | 'PUBLIC_BASE_URL' | 'TELEPHONY_CALLBACK_BASE_URL' | 'VOICE_AGENT_URL'>) {
  const origin = (config.TELEPHONY_CALLBACK_BASE_URL ?? publicUrls(config).hooks_url).replace(/\/+$/, '');
  return { statusCallback: `${origin}/telephony/twilio/status`, voiceAgent: config.VOICE_AGENT_URL ?? `${origin}/telephony/twilio/voice` };
}

/** The Media Streams WebSocket URL a TwiML answer connects the call to (see VOICE_STREAM_URL). */
export function voiceStreamUrl(
  config: Pick<Config, 'HOST' | 'PORT' | 'PUBLIC_BASE_URL' | 'TELEPHONY_CALLBACK_BASE_URL' | 'VOICE_STREAM_URL' | 'VOICE_HOST' | 'VOICE_PORT'>,
): string {
  if (config.VOICE_STREAM_URL) return config.VOICE_STREAM_URL;
  const origin = config.TELEPHONY_CALLBACK_BASE_URL ?? config.PUBLIC_BASE_URL;
  if (origin) return `${origin.replace(/\/+$/, '').replace(/^http/, 'ws')}/telephony/twilio/stream`;
  const host = config.VOICE_HOST === '0.0.0.0' || config.VOICE_HOST === '::' ? '127.0.0.1' : config.VOICE_HOST;
  return `ws://${host}:${config.VOICE_PORT}/telephony/twilio/stream`;
}
