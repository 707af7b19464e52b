import { z } from 'zod';

/** A calendar id param (`primary` or an address-like id). */
export const calendarId = z.string().min(1).max(255).default('primary');

/** A Google event id (base32hex, 5–1024 characters; imported ones may carry other characters). */
export const eventId = z.string().regex(/^[A-Za-z0-9_@.-]{1,1024}$/, 'a Google Calendar event id');

/** Whom Google notifies of a change. */
export const sendUpdates = z.enum(['all', 'externalOnly', 'none']).default('none');

/** The path of a calendar's events, or of one event. */
export const eventsPath = (calendar: string, event?: string) =>
  `/calendar/v3/calendars/${encodeURIComponent(calendar)}/events${event === undefined ? '' : `/${encodeURIComponent(event)}`}`;

/** An event time as Google gives it: a dateTime, or a date for all-day events. */
export interface EventTime {
  dateTime?: string;
  date?: string;
  timeZone?: string;
}

/** The instant (or date) of an event time. */
export const timeOf = (t: EventTime | undefined): string => t?.dateTime ?? t?.date ?? '';
