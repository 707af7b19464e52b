import { z } from 'zod';
import { badRequest } from '../errors';

/** Position fields of a keyset cursor: a timestamp with microseconds (UTC) and a UUID. */
const Position = z.tuple([z.iso.datetime({ precision: 6 }), z.guid()]);
export type CursorPosition = { at: string; id: string };

/** An opaque page cursor for a keyset position (base64url JSON; clients must not build or read it). */
export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify([position.at, position.id])).toString('base64url');
}

/** The position of a cursor made by encodeCursor, or a 400 `cursor: invalid cursor`. */
export function decodeCursor(cursor: string): CursorPosition {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('cursor: invalid cursor');
  }
  const result = Position.safeParse(parsed);
  if (!result.success) throw badRequest('cursor: invalid cursor');
  return { at: result.data[0], id: result.data[1] };
}
