/**
 * Makes a Piper voice loadable by sherpa-onnx's VITS engine, with no Python: sherpa reads the voice's settings from
 * the ONNX model's metadata (ModelProto field 14, `metadata_props`, repeated StringStringEntryProto {key = 1,
 * value = 2}) and its symbols from a tokens.txt. Protobuf merges repeated fields that appear anywhere in a message,
 * so the entries are appended to the end of the file, leaving the model's bytes untouched.
 */

function varint(n: number): Buffer {
  const bytes: number[] = [];
  while (n > 0x7f) {
    bytes.push((n & 0x7f) | 0x80);
    n = Math.floor(n / 128);
  }
  bytes.push(n);
  return Buffer.from(bytes);
}

/** A length-delimited field (wire type 2). */
const field = (number: number, payload: Buffer) => Buffer.concat([varint((number << 3) | 2), varint(payload.length), payload]);

/** The model with `metadata_props` entries appended. */
export function withOnnxMetadata(model: Buffer, entries: Record<string, string>): Buffer {
  const appended = Object.entries(entries).map(([key, value]) =>
    field(14, Buffer.concat([field(1, Buffer.from(key, 'utf8')), field(2, Buffer.from(value, 'utf8'))])),
  );
  return Buffer.concat([model, ...appended]);
}

/** sherpa-onnx's tokens.txt: one `symbol id` line per phoneme of the voice's phoneme_id_map (the space symbol too). */
export function piperTokens(voice: { phoneme_id_map: Record<string, number[]> }): string {
  return Object.entries(voice.phoneme_id_map)
    .map(([symbol, ids]) => {
      if (ids[0] === undefined) throw new Error(`the voice's phoneme_id_map has no id for ${JSON.stringify(symbol)}`);
      return `${symbol} ${ids[0]}\n`;
    })
    .join('');
}
