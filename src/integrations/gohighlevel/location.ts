import { z } from 'zod';
import { ActionInputError, type Connection } from '../define';

/** A HighLevel id (contact, location, calendar). */
export const ghlId = z.string().regex(/^[A-Za-z0-9]{8,64}$/, 'a HighLevel id');

/** The sub-account: the param, else the connection's `location_id`. */
export function locationId(given: string | undefined, conn: Connection): string {
  const id = given ?? conn.settings.location_id;
  if (!id) throw new ActionInputError('invalid_params', 'give locationId (or store location_id on the gohighlevel connection)', ['locationId: required']);
  return id;
}
