import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { loadConfig, type Config } from '../core/config';
import { devSecret } from './dev-secrets';

/**
 * Secrets at rest (connection credentials, webhook secrets) are sealed with AES-256-GCM:
 *   version (1 byte, 1) | key id (8 bytes) | IV (12 bytes) | tag (16 bytes) | ciphertext.
 * The key id (the first 8 bytes of the key's SHA-256) says which key sealed it, so ENCRYPTION_KEY can rotate: the
 * former key stays in ENCRYPTION_KEYS_PREVIOUS for reading while rows are resealed. The associated data binds an
 * sealed value to its row (e.g. `connection:<id>`): a sealed value copied into another row does not open.
 */
const VERSION = 1;
const KID_BYTES = 8;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER = 1 + KID_BYTES + IV_BYTES + TAG_BYTES;

/** A sealed value that cannot be opened: unknown key, corrupted, or sealed for another row. */
export class SealedValueError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SealedValueError';
  }
}

const keyId = (key: Buffer) => createHash('sha256').update(key).digest().subarray(0, KID_BYTES);

/** The current key and the former ones. */
export class Keyring {
  private readonly current: { id: Buffer; key: Buffer };
  private readonly byId = new Map<string, Buffer>();

  constructor(current: Buffer, previous: Buffer[] = []) {
    for (const key of [current, ...previous]) {
      if (key.length !== 32) throw new Error('encryption keys are 32 bytes');
      this.byId.set(keyId(key).toString('hex'), key);
    }
    this.current = { id: keyId(current), key: current };
  }

  /** The current key's id (hex), as sealed envelopes carry it. */
  get currentKeyId(): string {
    return this.current.id.toString('hex');
  }

  /** Seals plaintext under the current key, bound to aad. */
  seal(plaintext: string | Buffer, aad: string): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
    cipher.setAAD(Buffer.from(aad, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return Buffer.concat([Buffer.from([VERSION]), this.current.id, iv, cipher.getAuthTag(), body]);
  }

  /** Opens an envelope sealed with any key of the ring for the same aad. */
  open(envelope: Buffer, aad: string): Buffer {
    if (envelope.length < HEADER || envelope[0] !== VERSION) throw new SealedValueError('not a sealed value');
    const kid = envelope.subarray(1, 1 + KID_BYTES);
    const key = this.byId.get(kid.toString('hex'));
    if (!key) throw new SealedValueError(`sealed with an unknown key (id ${kid.toString('hex')}): add it to ENCRYPTION_KEYS_PREVIOUS`);
    const iv = envelope.subarray(1 + KID_BYTES, 1 + KID_BYTES + IV_BYTES);
    const tag = envelope.subarray(1 + KID_BYTES + IV_BYTES, HEADER);
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAAD(Buffer.from(aad, 'utf8'));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(envelope.subarray(HEADER)), decipher.final()]);
    } catch {
      throw new SealedValueError('sealed value does not authenticate (corrupted, or sealed for another row)');
    }
  }

  openText(envelope: Buffer, aad: string): string {
    return this.open(envelope, aad).toString('utf8');
  }

  /** The id of the current key as bytes, as envelopes carry it (bytes 1–8). */
  get currentKeyIdBytes(): Buffer {
    return Buffer.from(this.current.id);
  }

  /** True when an envelope was sealed with a former key (reseal it under the current one). */
  isStale(envelope: Buffer): boolean {
    return !envelope.subarray(1, 1 + KID_BYTES).equals(this.current.id);
  }
}

/** The keyring configuration describes: ENCRYPTION_KEY (or, outside production, a key generated into the data dir) and the former keys. */
export function keyringFromConfig(config: Pick<Config, 'NODE_ENV' | 'SWITCHBOARD_DATA_DIR' | 'ENCRYPTION_KEY' | 'ENCRYPTION_KEYS_PREVIOUS'>): Keyring {
  return new Keyring(config.ENCRYPTION_KEY ?? devSecret(config, 'encryption-key'), config.ENCRYPTION_KEYS_PREVIOUS);
}

let processKeyring: Keyring | undefined;

/** The process's keyring from its environment (api, worker and CLI read the same settings), built once. */
export function defaultKeyring(): Keyring {
  return (processKeyring ??= keyringFromConfig(loadConfig()));
}
