import { z } from 'zod';

// Call windows and wait windows as the API takes them (journey steps, agents, calls); src/schedule/window.ts computes
// with them. Zod only: workflows read these types.

const CLOCK = /^([01]\d|2[0-3]):[0-5]\d$/;
const Clock = z.string().regex(CLOCK, 'a time of day as HH:MM (24-hour)');

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

/** A weekday/time window in the lead's timezone (else the workspace's). */
export const Window = z
  .strictObject({ days: z.array(z.enum(WEEKDAYS)).min(1), start: Clock, end: Clock })
  .refine((w) => !(CLOCK.test(w.start) && CLOCK.test(w.end)) || w.start < w.end, { message: 'start must be before end', path: ['end'] });

/** A call step's own window (lead's timezone, else the workspace's); days default to every day. */
export const CallWindow = z
  .strictObject({ start: Clock, end: Clock, days: z.array(z.enum(WEEKDAYS)).min(1).optional() })
  .refine((w) => !(CLOCK.test(w.start) && CLOCK.test(w.end)) || w.start < w.end, { message: 'start must be before end', path: ['end'] });

export type TimeWindow = z.output<typeof Window>;
