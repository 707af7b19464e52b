import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { JwtAuthority } from '../../src/auth/jwt';
import { ConfigError, loadConfig } from '../../src/core/config';
import { devSecret } from '../../src/crypto/dev-secrets';
import { keyringFromConfig } from '../../src/crypto/keyring';

const tmp = () => mkdtempSync(path.join(os.tmpdir(), 'sb-secrets-'));
const problemsOf = (env: Record<string, string>) => {
  try {
    loadConfig(env);
    return [];
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return err.issues;
  }
};

describe('auth and encryption settings', () => {
  it('reads ENCRYPTION_KEY as 32 bytes in base64 or hex, and refuses anything else without echoing it', () => {
    const key = randomBytes(32);
    expect(loadConfig({ ENCRYPTION_KEY: key.toString('base64') }).ENCRYPTION_KEY).toEqual(key);
    expect(loadConfig({ ENCRYPTION_KEY: key.toString('hex') }).ENCRYPTION_KEY).toEqual(key);
    expect(loadConfig({ ENCRYPTION_KEYS_PREVIOUS: `${key.toString('base64url')}, ${key.toString('hex')}` }).ENCRYPTION_KEYS_PREVIOUS).toEqual([key, key]);
    for (const bad of [randomBytes(16).toString('base64'), 'correct horse battery staple', `${key.toString('hex')}00`]) {
      const issues = problemsOf({ ENCRYPTION_KEY: bad });
      expect(issues.map((i) => i.variable)).toEqual(['ENCRYPTION_KEY']);
      expect(JSON.stringify(issues)).not.toContain(bad);
    }
    const short = problemsOf({ JWT_SECRET: 'too-short-secret' });
    expect(short.map((i) => i.variable)).toEqual(['JWT_SECRET']);
    expect(JSON.stringify(short)).not.toContain('too-short-secret');
  });

  it('production refuses to start without ENCRYPTION_KEY, and the api without JWT_SECRET', () => {
    expect(problemsOf({ NODE_ENV: 'production', TWILIO_AUTH_TOKEN: 'x'.repeat(32) })).toEqual([
      { variable: 'ENCRYPTION_KEY', problem: expect.stringMatching(/required in production/) },
    ]);
    const config = loadConfig({
      NODE_ENV: 'production',
      ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      TWILIO_AUTH_TOKEN: 'x'.repeat(32),
      SWITCHBOARD_DATA_DIR: tmp(),
    });
    expect(() => new JwtAuthority(config)).toThrow(/JWT_SECRET: required in production/);
    expect(() => devSecret(config, 'jwt-secret')).toThrow(/no generated secrets in production/);
    expect(readdirSync(config.SWITCHBOARD_DATA_DIR)).toEqual([]);
  });

  it('outside production, generates each missing secret once into the data dir (0600) and every process reads the same', async () => {
    const dir = tmp();
    const config = loadConfig({ SWITCHBOARD_DATA_DIR: dir });
    const first = await Promise.all(Array.from({ length: 8 }, () => Promise.resolve().then(() => devSecret(config, 'encryption-key'))));
    expect(new Set(first.map((k) => k.toString('hex'))).size).toBe(1);
    expect(first[0]).toHaveLength(32);
    expect(statSync(path.join(dir, 'secrets', 'encryption-key')).mode & 0o777).toBe(0o600);
    expect(readdirSync(path.join(dir, 'secrets'))).toEqual(['encryption-key']);
    // A keyring built later from the same dir opens what an earlier one sealed.
    const sealed = keyringFromConfig(config).seal('x', 'a');
    expect(keyringFromConfig(loadConfig({ SWITCHBOARD_DATA_DIR: dir })).openText(sealed, 'a')).toBe('x');
    expect(devSecret(config, 'jwt-secret')).not.toEqual(first[0]);
  });

  it('tokens issued by one authority verify in another with the same settings', async () => {
    const config = loadConfig({ SWITCHBOARD_DATA_DIR: tmp() });
    const { token } = await new JwtAuthority(config).issue('8d5f8c1e-2f49-4f3c-9d7a-3c1b2a4e5f60');
    expect((await new JwtAuthority(config).verify(token)).userId).toBe('8d5f8c1e-2f49-4f3c-9d7a-3c1b2a4e5f60');
    const other = loadConfig({ SWITCHBOARD_DATA_DIR: tmp() });
    await expect(new JwtAuthority(other).verify(token)).rejects.toThrow(/signature/);
  });
});
