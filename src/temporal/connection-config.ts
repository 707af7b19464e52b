import type { ConnectionOptions } from '@temporalio/client';
import { loadClientConfigProfile, toClientOptions, type ClientConfigProfile, type ConfigDataSource } from '@temporalio/envconfig';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** Temporal's client environment settings (the SDKs' and the CLI's names), as this service reads them. */
export const TEMPORAL_ENV_SETTINGS = [
  'TEMPORAL_ADDRESS',
  'TEMPORAL_NAMESPACE',
  'TEMPORAL_API_KEY',
  'TEMPORAL_TLS',
  'TEMPORAL_TLS_CLIENT_CERT_PATH',
  'TEMPORAL_TLS_CLIENT_CERT_DATA',
  'TEMPORAL_TLS_CLIENT_KEY_PATH',
  'TEMPORAL_TLS_CLIENT_KEY_DATA',
  'TEMPORAL_TLS_SERVER_CA_CERT_PATH',
  'TEMPORAL_TLS_SERVER_CA_CERT_DATA',
  'TEMPORAL_TLS_SERVER_NAME',
  'TEMPORAL_CONFIG_FILE',
  'TEMPORAL_PROFILE',
] as const;
export type TemporalEnv = Partial<Record<(typeof TEMPORAL_ENV_SETTINGS)[number], string>>;

/** A Temporal setting that is wrong; `setting` names it (an environment variable, or a key of the TOML profile). */
export class TemporalSettingError extends Error {
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(message);
    this.name = 'TemporalSettingError';
  }
}

/** What a client or worker connects with: the SDKs' connection options (address, TLS, API key, gRPC metadata). */
export type TemporalConnectOptions = Pick<ConnectionOptions, 'tls' | 'metadata'> & { address: string; apiKey?: string };

const defined = (env: TemporalEnv) => Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as Record<string, string>;

/**
 * The profile Temporal's loader (@temporalio/envconfig) builds: the TOML file's profile, then the TEMPORAL_* variables
 * over it. The file is read only when asked for (TEMPORAL_CONFIG_FILE, or TEMPORAL_PROFILE for the default
 * ~/.config/temporalio/temporal.toml), so a developer's own profile never redirects `npm start` or the tests.
 */
export function temporalProfile(env: TemporalEnv, o: { fileOnly?: boolean } = {}): ClientConfigProfile {
  const useFile = env.TEMPORAL_CONFIG_FILE !== undefined || env.TEMPORAL_PROFILE !== undefined;
  if (!useFile && o.fileOnly) return {};
  const vars = { ...defined(env), ...defined({ HOME: process.env.HOME, XDG_CONFIG_HOME: process.env.XDG_CONFIG_HOME } as TemporalEnv) };
  if (useFile && env.TEMPORAL_CONFIG_FILE === undefined) vars.TEMPORAL_CONFIG_FILE = defaultConfigFile(vars);
  try {
    if (useFile) readFileSync(vars.TEMPORAL_CONFIG_FILE!);
  } catch (err) {
    throw new TemporalSettingError(
      env.TEMPORAL_CONFIG_FILE ? 'TEMPORAL_CONFIG_FILE' : 'TEMPORAL_PROFILE',
      `cannot read the config file ${vars.TEMPORAL_CONFIG_FILE} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    );
  }
  try {
    return loadClientConfigProfile({ overrideEnvVars: vars, disableFile: !useFile, disableEnv: o.fileOnly, configFileStrict: true });
  } catch (err) {
    const message = (err as Error).message;
    if (/^Profile '.*' not found/.test(message)) throw new TemporalSettingError('TEMPORAL_PROFILE', `${message} (${vars.TEMPORAL_CONFIG_FILE})`);
    throw new TemporalSettingError(useFile ? 'TEMPORAL_CONFIG_FILE' : 'TEMPORAL_TLS', `${vars.TEMPORAL_CONFIG_FILE ?? ''}: ${message}`);
  }
}

const defaultConfigFile = (vars: Record<string, string>) => `${vars.XDG_CONFIG_HOME ?? `${vars.HOME ?? ''}/.config`}/temporalio/temporal.toml`;

type Part = 'client_cert' | 'client_key' | 'server_ca_cert';
const ENV_OF: Record<Part, string> = {
  client_cert: 'TEMPORAL_TLS_CLIENT_CERT',
  client_key: 'TEMPORAL_TLS_CLIENT_KEY',
  server_ca_cert: 'TEMPORAL_TLS_SERVER_CA_CERT',
};

/** The name of the setting a TLS part came from: its environment variable, else its key in the profile. */
function settingOf(env: TemporalEnv, part: Part, source: ConfigDataSource): string {
  const kind = 'path' in source ? 'PATH' : 'DATA';
  const name = `${ENV_OF[part]}_${kind}` as keyof TemporalEnv;
  if (env[name] !== undefined) return name;
  return `tls.${part}_${kind.toLowerCase()} of profile "${env.TEMPORAL_PROFILE ?? 'default'}" in ${env.TEMPORAL_CONFIG_FILE ?? 'the Temporal config file'}`;
}

/** Reads a TLS part and checks it parses (a certificate, or a private key), naming the setting when it does not. */
function checkedPart(env: TemporalEnv, part: Part, source: ConfigDataSource | undefined): Buffer | undefined {
  if (!source) return undefined;
  const setting = settingOf(env, part, source);
  let bytes: Buffer;
  try {
    bytes = 'path' in source ? readFileSync(source.path) : Buffer.from(source.data);
  } catch (err) {
    throw new TemporalSettingError(
      setting,
      `cannot read ${'path' in source ? source.path : 'it'} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
    );
  }
  try {
    if (part === 'client_key') createPrivateKey(bytes);
    else new X509Certificate(bytes);
  } catch (err) {
    throw new TemporalSettingError(setting, `not a PEM ${part === 'client_key' ? 'private key' : 'certificate'} (${(err as Error).message})`);
  }
  return bytes;
}

/**
 * The connection options of the api, the worker, the CLI and the benches, from Temporal's settings. Every certificate
 * and key is read and checked here, at start-up: a missing or bad one is a TemporalSettingError naming its setting,
 * never a connection that hangs on a handshake.
 */
export function temporalConnectOptions(env: TemporalEnv): TemporalConnectOptions {
  const profile = temporalProfile(env);
  const tls = profile.tls;
  if (tls && !tls.disabled) {
    const cert = checkedPart(env, 'client_cert', tls.clientCert);
    const key = checkedPart(env, 'client_key', tls.clientKey);
    const ca = checkedPart(env, 'server_ca_cert', tls.serverCACert);
    if (!!cert !== !!key)
      throw new TemporalSettingError(
        cert ? 'TEMPORAL_TLS_CLIENT_KEY_PATH' : 'TEMPORAL_TLS_CLIENT_CERT_PATH',
        'a client certificate and its key go together: set both (or neither)',
      );
    if (cert && key && !new X509Certificate(cert).checkPrivateKey(createPrivateKey(key))) {
      throw new TemporalSettingError(settingOf(env, 'client_key', tls.clientKey!), 'the key does not match the client certificate');
    }
    profile.tls = { ...tls, clientCert: cert && { data: cert }, clientKey: key && { data: key }, serverCACert: ca && { data: ca } };
  }
  const { connectionOptions } = toClientOptions(profile);
  return { ...connectionOptions, address: profile.address ?? env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233' };
}
