import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig, temporalEnv } from '../../src/core/config';
import { temporalConnectOptions } from '../../src/temporal/connection-config';
import { makeTestPki, type TestPki } from '../helpers/tls';

let pki: TestPki;
beforeAll(async () => {
  pki = await makeTestPki();
});
afterAll(() => pki?.remove());

/** The configuration of exactly these settings (no HOME: no developer's own Temporal profile is near). */
const configOf = (env: Record<string, string>) => loadConfig({ NODE_ENV: 'test', SWITCHBOARD_DATA_DIR: pki.dir, ...env });
const optionsOf = (env: Record<string, string>) => temporalConnectOptions(temporalEnv(configOf(env)));
const problemOf = (env: Record<string, string>): string => {
  try {
    configOf(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as Error).message;
  }
  throw new Error('expected a configuration error');
};
const toml = (name: string, text: string) => {
  const file = path.join(pki.dir, name);
  writeFileSync(file, text);
  return file;
};

describe('Temporal connection settings → connection options', () => {
  it('connects in plain text to 127.0.0.1:7233 when nothing is set', () => {
    expect(optionsOf({})).toMatchObject({ address: '127.0.0.1:7233', tls: undefined, apiKey: undefined });
    expect(configOf({}).TEMPORAL_NAMESPACE).toBe('default');
  });

  it('an API key turns TLS on (system roots), as in Temporal Cloud; TEMPORAL_TLS=false turns it off', () => {
    expect(optionsOf({ TEMPORAL_ADDRESS: 'ns.acct.tmprl.cloud:7233', TEMPORAL_API_KEY: 'key-1' })).toMatchObject({
      address: 'ns.acct.tmprl.cloud:7233',
      apiKey: 'key-1',
      tls: true,
    });
    expect(optionsOf({ TEMPORAL_API_KEY: 'key-1', TEMPORAL_TLS: 'false' }).tls).toBe(false);
  });

  it('maps mTLS paths, data and the server name to the SDK’s TLS options', () => {
    const fromPaths = optionsOf({
      TEMPORAL_TLS_CLIENT_CERT_PATH: pki.clientCert,
      TEMPORAL_TLS_CLIENT_KEY_PATH: pki.clientKey,
      TEMPORAL_TLS_SERVER_CA_CERT_PATH: pki.caCert,
      TEMPORAL_TLS_SERVER_NAME: 'temporal.internal',
    });
    const tls = fromPaths.tls as { clientCertPair: { crt: Uint8Array; key: Uint8Array }; serverRootCACertificate: Uint8Array; serverNameOverride: string };
    expect(Buffer.from(tls.clientCertPair.crt)).toEqual(readFileSync(pki.clientCert));
    expect(Buffer.from(tls.clientCertPair.key)).toEqual(readFileSync(pki.clientKey));
    expect(Buffer.from(tls.serverRootCACertificate)).toEqual(readFileSync(pki.caCert));
    expect(tls.serverNameOverride).toBe('temporal.internal');
    const fromData = optionsOf({
      TEMPORAL_TLS_CLIENT_CERT_DATA: readFileSync(pki.clientCert, 'utf8'),
      TEMPORAL_TLS_CLIENT_KEY_DATA: readFileSync(pki.clientKey, 'utf8'),
    });
    expect(Buffer.from((fromData.tls as typeof tls).clientCertPair.crt)).toEqual(readFileSync(pki.clientCert));
  });
});

describe('profiles from a Temporal TOML config file', () => {
  const file = () =>
    toml(
      'temporal.toml',
      `[profile.default]\naddress = "127.0.0.1:7233"\n\n[profile.prod]\naddress = "temporal.prod:7233"\nnamespace = "switchboard"\napi_key = "from-file"\n\n` +
        `[profile.prod.tls]\nclient_cert_path = "${pki.clientCert}"\nclient_key_path = "${pki.clientKey}"\nserver_ca_cert_path = "${pki.caCert}"\n`,
    );

  it('TEMPORAL_PROFILE picks a profile of TEMPORAL_CONFIG_FILE: address, namespace, API key and certificates', () => {
    const config = configOf({ TEMPORAL_CONFIG_FILE: file(), TEMPORAL_PROFILE: 'prod' });
    expect(config).toMatchObject({ TEMPORAL_ADDRESS: 'temporal.prod:7233', TEMPORAL_NAMESPACE: 'switchboard' });
    const options = temporalConnectOptions(temporalEnv(config));
    expect(options).toMatchObject({ address: 'temporal.prod:7233', apiKey: 'from-file' });
    expect(Buffer.from((options.tls as { clientCertPair: { crt: Uint8Array } }).clientCertPair.crt)).toEqual(readFileSync(pki.clientCert));
    expect(configOf({ TEMPORAL_CONFIG_FILE: file() }).TEMPORAL_ADDRESS).toBe('127.0.0.1:7233');
  });

  it('environment variables override the profile', () => {
    const config = configOf({ TEMPORAL_CONFIG_FILE: file(), TEMPORAL_PROFILE: 'prod', TEMPORAL_ADDRESS: 'other:7233', TEMPORAL_API_KEY: 'from-env' });
    expect(temporalConnectOptions(temporalEnv(config))).toMatchObject({ address: 'other:7233', apiKey: 'from-env' });
    expect(config.TEMPORAL_NAMESPACE).toBe('switchboard');
  });

  it('reads no file unless asked: a profile in the user’s config dir does not redirect the dev stack', () => {
    mkdirSync(path.join(pki.dir, 'xdg', 'temporalio'), { recursive: true });
    writeFileSync(path.join(pki.dir, 'xdg', 'temporalio', 'temporal.toml'), '[profile.default]\naddress = "elsewhere:7233"\n');
    const saved = process.env.XDG_CONFIG_HOME;
    process.env.XDG_CONFIG_HOME = path.join(pki.dir, 'xdg');
    try {
      expect(configOf({}).TEMPORAL_ADDRESS).toBe('127.0.0.1:7233');
      expect(configOf({ TEMPORAL_PROFILE: 'default' }).TEMPORAL_ADDRESS).toBe('elsewhere:7233');
    } finally {
      if (saved === undefined) delete process.env.XDG_CONFIG_HOME;
      else process.env.XDG_CONFIG_HOME = saved;
    }
  });
});

describe('a bad or missing setting stops start-up naming it', () => {
  it('a missing certificate path names its variable', () => {
    const missing = path.join(pki.dir, 'nope.pem');
    expect(problemOf({ TEMPORAL_TLS_CLIENT_CERT_PATH: missing, TEMPORAL_TLS_CLIENT_KEY_PATH: pki.clientKey })).toMatch(
      new RegExp(`TEMPORAL_TLS_CLIENT_CERT_PATH: cannot read ${missing.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(ENOENT\\)`),
    );
    expect(problemOf({ TEMPORAL_TLS_SERVER_CA_CERT_PATH: missing })).toMatch(/TEMPORAL_TLS_SERVER_CA_CERT_PATH: cannot read/);
  });

  it('a file that is no certificate or key, a lone certificate, and a key of another certificate are refused', () => {
    expect(problemOf({ TEMPORAL_TLS_SERVER_CA_CERT_PATH: pki.clientKey })).toMatch(/TEMPORAL_TLS_SERVER_CA_CERT_PATH: not a PEM certificate/);
    expect(problemOf({ TEMPORAL_TLS_SERVER_CA_CERT_DATA: 'hello' })).toMatch(/TEMPORAL_TLS_SERVER_CA_CERT_DATA: not a PEM certificate/);
    expect(problemOf({ TEMPORAL_TLS_CLIENT_CERT_PATH: pki.clientCert, TEMPORAL_TLS_CLIENT_KEY_PATH: pki.clientCert })).toMatch(
      /TEMPORAL_TLS_CLIENT_KEY_PATH: not a PEM private key/,
    );
    expect(problemOf({ TEMPORAL_TLS_CLIENT_CERT_PATH: pki.clientCert })).toMatch(/TEMPORAL_TLS_CLIENT_KEY_PATH: a client certificate and its key go together/);
    expect(problemOf({ TEMPORAL_TLS_CLIENT_CERT_PATH: pki.clientCert, TEMPORAL_TLS_CLIENT_KEY_PATH: pki.strangerKey })).toMatch(
      /TEMPORAL_TLS_CLIENT_KEY_PATH: the key does not match/,
    );
  });

  it('a key’s secret data is never repeated in the message', () => {
    const message = problemOf({ TEMPORAL_TLS_CLIENT_CERT_PATH: pki.clientCert, TEMPORAL_TLS_CLIENT_KEY_DATA: 'secret-not-a-key' });
    expect(message).toMatch(/TEMPORAL_TLS_CLIENT_KEY_DATA: not a PEM private key/);
    expect(message).not.toContain('secret-not-a-key');
  });

  it('names the profile key, the profile, the config file, or an unknown key in it', () => {
    const bad = toml('bad-path.toml', `[profile.prod.tls]\nserver_ca_cert_path = "${path.join(pki.dir, 'gone.pem')}"\n`);
    expect(problemOf({ TEMPORAL_CONFIG_FILE: bad, TEMPORAL_PROFILE: 'prod' })).toMatch(
      /tls\.server_ca_cert_path of profile "prod" in .*bad-path\.toml: cannot read/,
    );
    expect(problemOf({ TEMPORAL_CONFIG_FILE: bad, TEMPORAL_PROFILE: 'staging' })).toMatch(/TEMPORAL_PROFILE: Profile 'staging' not found/);
    expect(problemOf({ TEMPORAL_CONFIG_FILE: path.join(pki.dir, 'missing.toml') })).toMatch(
      /TEMPORAL_CONFIG_FILE: cannot read the config file .*missing\.toml \(ENOENT\)/,
    );
    const typo = toml('typo.toml', '[profile.default]\nadress = "x:1"\n');
    expect(problemOf({ TEMPORAL_CONFIG_FILE: typo })).toMatch(/TEMPORAL_CONFIG_FILE: .*unrecognized.*adress/);
    expect(problemOf({ TEMPORAL_CONFIG_FILE: toml('broken.toml', '[profile.default\n') })).toMatch(/TEMPORAL_CONFIG_FILE: /);
  });
});
