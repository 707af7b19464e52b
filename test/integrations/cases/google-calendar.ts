import type { IntegrationCases } from '../../helpers/action-cases';

const H = { authorization: 'Bearer ya29.test' };
/** The event id derives from the run's idempotency key (so a replay books once): 40 hex characters. */
const EVENT_ID = expect.stringMatching(/^[0-9a-f]{40}$/);

/** Google Calendar: OAuth bearer; events.insert with a client-chosen id. */
export const google_calendar: IntegrationCases = {
  integration: 'google_calendar',
  connection: { kind: 'oauth2', secrets: { access_token: 'ya29.test' } },
  spec: { file: 'google-calendar.json' },
  cases: [
    {
      action: 'appointment',
      params: { summary: 'Demo call', start: '2026-12-01T10:00:00+01:00', durationMinutes: 45, timeZone: 'Europe/Paris', attendees: [{ email: 'ada@example.com' }] },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/calendar/v3/calendars/primary/events',
            query: { sendUpdates: 'none' },
            headers: { ...H, 'content-type': 'application/json' },
            body: {
              id: EVENT_ID,
              summary: 'Demo call',
              start: { dateTime: '2026-12-01T09:00:00.000Z', timeZone: 'Europe/Paris' },
              end: { dateTime: '2026-12-01T09:45:00.000Z', timeZone: 'Europe/Paris' },
              attendees: [{ email: 'ada@example.com' }],
            },
          },
          response: { status: 200, body: { id: 'evt1', htmlLink: 'https://calendar.google.com/event?eid=x' } },
        },
      ],
      data: { id: 'evt1', htmlLink: 'https://calendar.google.com/event?eid=x', start: '2026-12-01T09:00:00.000Z', end: '2026-12-01T09:45:00.000Z', existing: false },
    },
    {
      action: 'appointment',
      name: 'first free slot after freeBusy',
      params: { summary: 'Demo', start: '2026-12-01T09:00:00Z', durationMinutes: 30, findFreeSlot: true },
      exchanges: [
        {
          request: { method: 'POST', path: '/calendar/v3/freeBusy', headers: H, body: { timeMin: '2026-12-01T09:00:00.000Z', timeMax: '2026-12-08T09:00:00.000Z', items: [{ id: 'primary' }] } },
          response: {
            status: 200,
            body: { kind: 'calendar#freeBusy', calendars: { primary: { busy: [{ start: '2026-12-01T09:00:00Z', end: '2026-12-01T09:40:00Z' }, { start: '2026-12-01T10:00:00Z', end: '2026-12-01T10:30:00Z' }] } } },
          },
        },
        {
          // 09:45 would overlap 10:00; the first free 30 minutes on the 15-minute grid start at 10:30.
          request: {
            method: 'POST',
            path: '/calendar/v3/calendars/primary/events',
            query: { sendUpdates: 'none' },
            headers: H,
            body: { id: EVENT_ID, summary: 'Demo', start: { dateTime: '2026-12-01T10:30:00.000Z' }, end: { dateTime: '2026-12-01T11:00:00.000Z' } },
          },
          response: { status: 200, body: { id: 'evt2' } },
        },
      ],
      data: { id: 'evt2', start: '2026-12-01T10:30:00.000Z', end: '2026-12-01T11:00:00.000Z', existing: false },
      notDescribed: 'google-calendar.json keeps events.insert only, not freeBusy (the insert is validated)',
    },
  ],
};
