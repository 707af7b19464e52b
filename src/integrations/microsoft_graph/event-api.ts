import { z } from 'zod';

/** Graph wants a wall-clock dateTime plus a time zone name (Windows or IANA), not an offset. */
export const wallClock = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/, 'a local date-time without offset, e.g. 2026-12-01T10:00:00');

/** An Outlook event id (base64url-like, as Graph issues them). */
export const eventId = z
  .string()
  .min(1)
  .max(512)
  .regex(/^[A-Za-z0-9_=+-]+$/, 'an Outlook event id')
  .describe('The id create_event returned');

/** A Graph date-time with its zone. */
export interface GraphTime {
  dateTime: string;
  timeZone?: string;
}

/** Graph's UTC wall clock (no offset) read as an ISO instant. */
export const utcInstant = (t: GraphTime | undefined): string => (t ? new Date(`${t.dateTime.replace(/Z$/, '')}Z`).toISOString() : '');
