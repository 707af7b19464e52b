import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../core/config';

/**
 * A secret the dev stack needs but nobody configured (JWT_SECRET, ENCRYPTION_KEY outside production): 32 random bytes
 * generated once into `<SWITCHBOARD_DATA_DIR>/secrets/<name>` (mode 0600) and read back by every later process, so the
 * api, the worker and the CLI agree and restarts keep tokens and encrypted data readable. Production config refuses
 * to start without the real settings, so this is never reached there.
 */
export function devSecret(config: Pick<Config, 'NODE_ENV' | 'SWITCHBOARD_DATA_DIR'>, name: 'jwt-secret' | 'encryption-key' | 'codec-token'): Buffer {
  if (config.NODE_ENV === 'production') throw new Error(`${name}: no generated secrets in production`);
  const dir = path.join(config.SWITCHBOARD_DATA_DIR, 'secrets');
  const file = path.join(dir, name);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Written aside, then linked into place: of two processes starting together one wins, and neither reads a half file.
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  writeFileSync(tmp, randomBytes(32).toString('base64'), { mode: 0o600 });
  try {
    linkSync(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    unlinkSync(tmp);
  }
  const bytes = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (bytes.length !== 32) throw new Error(`${file}: not a 32-byte base64 secret (delete it to generate a new one)`);
  return bytes;
}
