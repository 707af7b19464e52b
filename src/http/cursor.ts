import { badRequest } from './api-error';
import { UUID_PATTERN } from '../core/ids';

/** A keyset position: a timestamp with microseconds (ISO-8601, UTC, 6 fraction digits) and a UUID. */
export type CursorPosition = { at: string; id: string };

/**
 * A page cursor of every listing: `<epoch microseconds>.<uuid>`. Every string this pattern matches is a position, so a cursor the
 * document calls valid is never refused (the fuzzer's rule), and the pattern is what the OpenAPI document states.
 */
export const CURSOR_PATTERN = new RegExp(`^(\\d{1,17})\\.(${UUID_PATTERN.source.replace(/^\^|\$$/g, '')})$`, 'i');

/** The cursor of a keyset position. */
export function encodeCursor(position: CursorPosition): string {
  const match = /^(.*T\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?Z$/.exec(position.at);
  if (!match) throw new Error(`not a UTC timestamp: ${position.at}`);
  const fraction = (match[2] ?? '').padEnd(6, '0');
  const micros = BigInt(Date.parse(`${match[1]}Z`)) * 1000n + BigInt(fraction);
  return `${micros}.${position.id}`;
}

/** The position of a cursor (as CURSOR_PATTERN matches), or a 400 `cursor: invalid cursor`. */
export function decodeCursor(cursor: string): CursorPosition {
  const match = CURSOR_PATTERN.exec(cursor);
  if (!match) throw badRequest('cursor: invalid cursor');
  const micros = BigInt(match[1]!);
  const seconds = new Date(Number(micros / 1_000_000n) * 1000).toISOString().slice(0, 19);
  return { at: `${seconds}.${(micros % 1_000_000n).toString().padStart(6, '0')}Z`, id: match[2]!.toLowerCase() };
}
