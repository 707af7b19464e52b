import type { DataConverter } from '@temporalio/common';
import type { Payload, PayloadCodec } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import type { Keyring } from '../crypto/keyring';

/** The encoding of a payload this codec sealed; anything else (older histories) passes through unchanged. */
export const ENCRYPTED_ENCODING = 'binary/encrypted';
/** Metadata naming the key that sealed a payload (the envelope carries it too), for operators and rotation. */
export const KEY_ID_METADATA = 'encryption-key-id';
// Binds an envelope to its use: a sealed connection secret is not a payload, nor the other way round.
const AAD = 'temporal-payload';

const text = (bytes: Uint8Array | null | undefined) => (bytes ? Buffer.from(bytes).toString('utf8') : undefined);

/**
 * Encrypts every payload a client or worker sends to Temporal (workflow inputs, results, signals, updates, memos,
 * activity arguments) with AES-256-GCM under the keyring's current key; decrypts with any key of the ring, so
 * ENCRYPTION_KEY can rotate while histories sealed under a former key still open.
 */
export class EncryptionCodec implements PayloadCodec {
  constructor(private readonly keyring: Keyring) {}

  async encode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => ({
      metadata: { encoding: Buffer.from(ENCRYPTED_ENCODING), [KEY_ID_METADATA]: Buffer.from(this.keyring.currentKeyId) },
      data: this.keyring.seal(Buffer.from(temporal.api.common.v1.Payload.encode(payload).finish()), AAD),
    }));
  }

  async decode(payloads: Payload[]): Promise<Payload[]> {
    return payloads.map((payload) => {
      if (text(payload.metadata?.encoding) !== ENCRYPTED_ENCODING) return payload;
      if (!payload.data) throw new Error('encrypted payload without data');
      const plain = this.keyring.open(Buffer.from(payload.data), AAD);
      return temporal.api.common.v1.Payload.decode(plain) as Payload;
    });
  }
}

/** The data converter every client and worker of this service uses: the default converters, then encryption. */
export function encryptingDataConverter(keyring: Keyring): DataConverter {
  return { payloadCodecs: [new EncryptionCodec(keyring)] };
}

/** A payload as the remote codec protocol carries it (protobuf JSON: metadata values and data in base64). */
export interface JsonPayload {
  metadata?: Record<string, string> | null;
  data?: string | null;
}

const fromJson = (p: JsonPayload): Payload => ({
  metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64')])),
  data: Buffer.from(p.data ?? '', 'base64'),
});

const toJson = (p: Payload): JsonPayload => ({
  metadata: Object.fromEntries(Object.entries(p.metadata ?? {}).map(([k, v]) => [k, Buffer.from(v).toString('base64')])),
  data: Buffer.from(p.data ?? new Uint8Array()).toString('base64'),
});

/** The remote codec protocol's /encode or /decode: {payloads:[…]} in, the same shape out. */
export async function runCodec(codec: PayloadCodec, op: 'encode' | 'decode', payloads: JsonPayload[]): Promise<{ payloads: JsonPayload[] }> {
  const out = await codec[op](payloads.map(fromJson));
  return { payloads: out.map(toJson) };
}

const isEncrypted = (v: unknown): v is Payload => {
  const m = (v as Payload | null)?.metadata;
  return !!m && m.encoding instanceof Uint8Array && text(m.encoding) === ENCRYPTED_ENCODING;
};

/**
 * A history with every encrypted payload decoded, wherever it sits (inputs, results, headers, memos, failures):
 * what a replay fixture keeps, so it replays on any machine whatever key recorded it.
 */
export async function decodeHistory<T>(history: T, codec: PayloadCodec): Promise<T> {
  const walk = async (v: unknown): Promise<unknown> => {
    if (isEncrypted(v)) return (await codec.decode([v]))[0];
    if (Array.isArray(v)) return Promise.all(v.map(walk));
    if (v && typeof v === 'object' && !(v instanceof Uint8Array) && !ArrayBuffer.isView(v)) {
      for (const [k, child] of Object.entries(v)) (v as Record<string, unknown>)[k] = await walk(child);
    }
    return v;
  };
  return (await walk(history)) as T;
}
