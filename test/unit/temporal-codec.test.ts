import { defaultPayloadConverter } from '@temporalio/common';
import { randomBytes } from 'node:crypto';
import { SealedValueError, Keyring } from '../../src/crypto/keyring';
import { decodeHistory, EncryptionCodec, ENCRYPTED_ENCODING, KEY_ID_METADATA } from '../../src/temporal/codec';
import { fixtureFiles, historyOf, loadFixture } from '../helpers/replay-fixtures';

const text = (b: Uint8Array | null | undefined) => Buffer.from(b ?? []).toString();
const value = { bearerToken: 'very-secret-token', phone: '+15550100' };

describe('EncryptionCodec', () => {
  const oldKey = randomBytes(32);
  const newKey = randomBytes(32);

  it('encrypts a payload under the current key, naming it in the metadata, and decodes it back', async () => {
    const ring = new Keyring(oldKey);
    const codec = new EncryptionCodec(ring);
    const payload = defaultPayloadConverter.toPayload(value);
    const [sealed] = await codec.encode([payload]);
    expect(text(sealed!.metadata!.encoding)).toBe(ENCRYPTED_ENCODING);
    expect(text(sealed!.metadata![KEY_ID_METADATA])).toBe(ring.currentKeyId);
    expect(Buffer.from(sealed!.data!).includes('very-secret-token')).toBe(false);
    const [opened] = await codec.decode([sealed!]);
    expect(defaultPayloadConverter.fromPayload(opened!)).toEqual(value);
  });

  it('decodes payloads sealed under a former key after rotation, and refuses an unknown key', async () => {
    const [sealed] = await new EncryptionCodec(new Keyring(oldKey)).encode([defaultPayloadConverter.toPayload(value)]);
    const rotated = new EncryptionCodec(new Keyring(newKey, [oldKey]));
    expect(defaultPayloadConverter.fromPayload((await rotated.decode([sealed!]))[0]!)).toEqual(value);
    const [resealed] = await rotated.encode([defaultPayloadConverter.toPayload(value)]);
    expect(text(resealed!.metadata![KEY_ID_METADATA])).toBe(new Keyring(newKey).currentKeyId);
    await expect(new EncryptionCodec(new Keyring(newKey)).decode([sealed!])).rejects.toThrow(SealedValueError);
  });

  it('passes unencrypted payloads (histories from before the codec) through unchanged', async () => {
    const plain = defaultPayloadConverter.toPayload(value);
    expect(await new EncryptionCodec(new Keyring(newKey)).decode([plain])).toEqual([plain]);
  });

  it('leaves a recorded (unencrypted) history as it is, and decodes every payload of an encrypted one', async () => {
    const codec = new EncryptionCodec(new Keyring(newKey));
    const f = loadFixture(fixtureFiles('automation')[0]!);
    const before = JSON.stringify(historyOf(f));
    expect(JSON.stringify(await decodeHistory(historyOf(f), codec))).toBe(before);

    const history = historyOf(f);
    const input = history.events![0]!.workflowExecutionStartedEventAttributes!.input!;
    const original = input.payloads![0]!;
    input.payloads = await codec.encode([original]);
    expect(text(input.payloads[0]!.metadata!.encoding)).toBe(ENCRYPTED_ENCODING);
    const decoded = await decodeHistory(history, codec);
    expect(decoded.events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!.data).toEqual(original.data);
  });
});
