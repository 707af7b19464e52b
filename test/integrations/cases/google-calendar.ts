import type { IntegrationCases } from '../../helpers/action-cases';

const H = { authorization: 'Bearer ya29.test' };
const NOT_DESCRIBED = 'google-calendar.json keeps events.insert only';
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
      params: {
        summary: 'Demo call',
        start: '2026-12-01T10:00:00+01:00',
        durationMinutes: 45,
        timeZone: 'Europe/Paris',
        attendees: [{ email: 'ada@example.com' }],
      },
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
      data: {
        id: 'evt1',
        htmlLink: 'https://calendar.google.com/event?eid=x',
        start: '2026-12-01T09:00:00.000Z',
        end: '2026-12-01T09:45:00.000Z',
        existing: false,
      },
    },
    {
      action: 'appointment',
      name: 'first free slot after freeBusy',
      params: { summary: 'Demo', start: '2026-12-01T09:00:00Z', durationMinutes: 30, findFreeSlot: true },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/calendar/v3/freeBusy',
            headers: H,
            body: { timeMin: '2026-12-01T09:00:00.000Z', timeMax: '2026-12-08T09:00:00.000Z', items: [{ id: 'primary' }] },
          },
          response: {
            status: 200,
            body: {
              kind: 'calendar#freeBusy',
              calendars: {
                primary: {
                  busy: [
                    { start: '2026-12-01T09:00:00Z', end: '2026-12-01T09:40:00Z' },
                    { start: '2026-12-01T10:00:00Z', end: '2026-12-01T10:30:00Z' },
                  ],
                },
              },
            },
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
    {
      action: 'check_availability',
      params: { timeMin: '2026-12-01T09:00:00+01:00', timeMax: '2026-12-01T18:00:00+01:00', calendarIds: ['primary', 'room@example.com'] },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/calendar/v3/freeBusy',
            headers: { ...H, 'content-type': 'application/json' },
            body: { timeMin: '2026-12-01T09:00:00+01:00', timeMax: '2026-12-01T18:00:00+01:00', items: [{ id: 'primary' }, { id: 'room@example.com' }] },
          },
          response: {
            status: 200,
            body: {
              kind: 'calendar#freeBusy',
              calendars: { primary: { busy: [{ start: '2026-12-01T10:00:00Z', end: '2026-12-01T10:30:00Z' }] }, 'room@example.com': { busy: [] } },
            },
          },
        },
      ],
      data: { free: false, busy: [{ calendarId: 'primary', start: '2026-12-01T10:00:00Z', end: '2026-12-01T10:30:00Z' }] },
      notDescribed: NOT_DESCRIBED,
    },
    {
      action: 'list_events',
      params: { timeMin: '2026-12-01T00:00:00Z', timeMax: '2026-12-02T00:00:00Z', q: 'demo', maxResults: 10 },
      exchanges: [
        {
          request: {
            method: 'GET',
            path: '/calendar/v3/calendars/primary/events',
            query: {
              timeMin: '2026-12-01T00:00:00Z',
              timeMax: '2026-12-02T00:00:00Z',
              singleEvents: 'true',
              orderBy: 'startTime',
              maxResults: '10',
              q: 'demo',
            },
            headers: H,
          },
          response: {
            status: 200,
            body: {
              kind: 'calendar#events',
              items: [
                {
                  id: 'evt1',
                  summary: 'Demo call',
                  status: 'confirmed',
                  htmlLink: 'https://calendar.google.com/event?eid=1',
                  start: { dateTime: '2026-12-01T10:00:00Z' },
                  end: { dateTime: '2026-12-01T10:45:00Z' },
                },
                { id: 'evt2', status: 'tentative', start: { date: '2026-12-01' }, end: { date: '2026-12-02' } },
              ],
              nextPageToken: 'page-2',
            },
          },
        },
      ],
      data: {
        events: [
          {
            id: 'evt1',
            summary: 'Demo call',
            start: '2026-12-01T10:00:00Z',
            end: '2026-12-01T10:45:00Z',
            status: 'confirmed',
            htmlLink: 'https://calendar.google.com/event?eid=1',
          },
          { id: 'evt2', summary: null, start: '2026-12-01', end: '2026-12-02', status: 'tentative', htmlLink: null },
        ],
        nextPageToken: 'page-2',
      },
      notDescribed: NOT_DESCRIBED,
    },
    {
      action: 'reschedule_appointment',
      params: { eventId: 'evt1', start: '2026-12-02T15:00:00+01:00', durationMinutes: 45, sendUpdates: 'all' },
      exchanges: [
        {
          request: {
            method: 'PATCH',
            path: '/calendar/v3/calendars/primary/events/evt1',
            query: { sendUpdates: 'all' },
            headers: { ...H, 'content-type': 'application/json' },
            body: { start: { dateTime: '2026-12-02T14:00:00.000Z' }, end: { dateTime: '2026-12-02T14:45:00.000Z' } },
          },
          response: {
            status: 200,
            body: {
              id: 'evt1',
              htmlLink: 'https://calendar.google.com/event?eid=1',
              start: { dateTime: '2026-12-02T15:00:00+01:00' },
              end: { dateTime: '2026-12-02T15:45:00+01:00' },
            },
          },
        },
      ],
      data: { id: 'evt1', start: '2026-12-02T15:00:00+01:00', end: '2026-12-02T15:45:00+01:00', htmlLink: 'https://calendar.google.com/event?eid=1' },
      notDescribed: NOT_DESCRIBED,
    },
    {
      action: 'cancel_appointment',
      params: { eventId: 'evt1', sendUpdates: 'all' },
      exchanges: [
        {
          request: { method: 'DELETE', path: '/calendar/v3/calendars/primary/events/evt1', query: { sendUpdates: 'all' }, headers: H },
          response: { status: 204 },
        },
      ],
      data: { id: 'evt1', cancelled: true, alreadyCancelled: false },
      notDescribed: NOT_DESCRIBED,
    },
  ],
};
