import type { IntegrationCases } from '../../helpers/action-cases';

// Microsoft's Graph OpenAPI is too large to keep in ../shared/vendor-apis/ (see its INDEX.md): exact requests only,
// written from the sendMail, create-event and getSchedule reference pages.
const H = { authorization: 'Bearer eyJ0.graph' };
const utc = (wall: string) => ({ dateTime: wall, timeZone: 'UTC' });

/** Microsoft Graph (Outlook mail and calendar): OAuth bearer. */
export const microsoft_graph: IntegrationCases = {
  integration: 'microsoft_graph',
  connection: { kind: 'oauth2', secrets: { access_token: 'eyJ0.graph' } },
  cases: [
    {
      action: 'send_email',
      params: { to: ['ada@example.com'], cc: ['ops@example.com'], subject: 'Summary', body: '<b>Thanks</b>', contentType: 'HTML' },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/v1.0/me/sendMail',
            headers: { ...H, 'content-type': 'application/json' },
            body: {
              message: {
                subject: 'Summary',
                body: { contentType: 'HTML', content: '<b>Thanks</b>' },
                toRecipients: [{ emailAddress: { address: 'ada@example.com' } }],
                ccRecipients: [{ emailAddress: { address: 'ops@example.com' } }],
              },
              saveToSentItems: true,
            },
          },
          response: { status: 202 },
        },
      ],
      data: { accepted: true },
    },
    {
      action: 'create_event',
      params: {
        subject: 'Demo',
        start: '2026-12-01T10:00:00',
        end: '2026-12-01T10:30:00',
        timeZone: 'Europe/Paris',
        body: 'Booked by phone',
        location: 'Office',
        attendees: [{ email: 'ada@example.com', name: 'Ada' }],
        isOnlineMeeting: true,
      },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/v1.0/me/events',
            headers: H,
            body: {
              subject: 'Demo',
              start: { dateTime: '2026-12-01T10:00:00', timeZone: 'Europe/Paris' },
              end: { dateTime: '2026-12-01T10:30:00', timeZone: 'Europe/Paris' },
              transactionId: '{requestId}',
              body: { contentType: 'Text', content: 'Booked by phone' },
              location: { displayName: 'Office' },
              attendees: [{ emailAddress: { address: 'ada@example.com', name: 'Ada' }, type: 'required' }],
              isOnlineMeeting: true,
              onlineMeetingProvider: 'teamsForBusiness',
            },
          },
          response: {
            status: 201,
            body: {
              id: 'AAMk1',
              webLink: 'https://outlook.office365.com/owa/?itemid=AAMk1',
              onlineMeeting: { joinUrl: 'https://teams.microsoft.com/l/meetup-join/x' },
            },
          },
        },
      ],
      data: { id: 'AAMk1', webLink: 'https://outlook.office365.com/owa/?itemid=AAMk1', onlineMeetingUrl: 'https://teams.microsoft.com/l/meetup-join/x' },
    },
    {
      action: 'find_free_slots',
      params: {
        from: '2026-12-01T10:00:00+01:00',
        to: '2026-12-01T12:00:00+01:00',
        durationMinutes: 30,
        schedules: ['ada@contoso.com', 'bob@contoso.com'],
        maxSlots: 3,
      },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/v1.0/me/calendar/getSchedule',
            headers: { ...H, prefer: 'outlook.timezone="UTC"' },
            body: {
              schedules: ['ada@contoso.com', 'bob@contoso.com'],
              startTime: utc('2026-12-01T09:00:00.000'),
              endTime: utc('2026-12-01T11:00:00.000'),
              availabilityViewInterval: 15,
            },
          },
          response: {
            status: 200,
            body: {
              value: [
                {
                  scheduleId: 'ada@contoso.com',
                  availabilityView: '2200',
                  scheduleItems: [{ status: 'Busy', start: utc('2026-12-01T09:00:00.0000000'), end: utc('2026-12-01T09:40:00.0000000') }],
                },
                {
                  scheduleId: 'bob@contoso.com',
                  availabilityView: '0010',
                  scheduleItems: [
                    { status: 'Tentative', start: utc('2026-12-01T10:00:00.0000000'), end: utc('2026-12-01T10:15:00.0000000') },
                    { status: 'Free', start: utc('2026-12-01T10:30:00.0000000'), end: utc('2026-12-01T11:00:00.0000000') },
                  ],
                },
              ],
            },
          },
        },
      ],
      // Window 09:00–11:00 UTC; 09:00–09:40 busy and 10:00–10:15 tentative (the Free item does not block): 09:45 would
      // overlap 10:00, so only 10:15 and 10:30 fit before the window ends.
      data: {
        slots: [
          { start: '2026-12-01T10:15:00.000Z', end: '2026-12-01T10:45:00.000Z' },
          { start: '2026-12-01T10:30:00.000Z', end: '2026-12-01T11:00:00.000Z' },
        ],
        busy: 2,
      },
    },
    {
      action: 'check_availability',
      params: { from: '2026-12-01T09:00:00+01:00', to: '2026-12-01T17:00:00+01:00', schedules: ['ada@example.com'] },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/v1.0/me/calendar/getSchedule',
            headers: { ...H, prefer: 'outlook.timezone="UTC"', 'content-type': 'application/json' },
            body: { schedules: ['ada@example.com'], startTime: utc('2026-12-01T08:00:00.000'), endTime: utc('2026-12-01T16:00:00.000') },
          },
          response: {
            status: 200,
            body: {
              value: [
                {
                  scheduleId: 'ada@example.com',
                  scheduleItems: [
                    { status: 'busy', start: utc('2026-12-01T09:00:00.0000000'), end: utc('2026-12-01T09:30:00.0000000') },
                    { status: 'free', start: utc('2026-12-01T11:00:00.0000000'), end: utc('2026-12-01T12:00:00.0000000') },
                  ],
                },
              ],
            },
          },
        },
      ],
      data: { free: false, busy: [{ schedule: 'ada@example.com', status: 'busy', start: '2026-12-01T09:00:00.000Z', end: '2026-12-01T09:30:00.000Z' }] },
    },
    {
      action: 'list_events',
      params: { from: '2026-12-01T00:00:00Z', to: '2026-12-02T00:00:00Z', top: 10, mailbox: 'ada@example.com' },
      exchanges: [
        {
          request: {
            method: 'GET',
            path: '/v1.0/users/ada%40example.com/calendarView',
            query: {
              startDateTime: '2026-12-01T00:00:00.000Z',
              endDateTime: '2026-12-02T00:00:00.000Z',
              $top: '10',
              $orderby: 'start/dateTime',
              $select: 'id,subject,start,end,isCancelled,webLink',
            },
            headers: { ...H, prefer: 'outlook.timezone="UTC"' },
          },
          response: {
            status: 200,
            body: {
              value: [
                {
                  id: 'AAMkAGI1',
                  subject: 'Demo',
                  start: utc('2026-12-01T10:00:00.0000000'),
                  end: utc('2026-12-01T10:30:00.0000000'),
                  isCancelled: false,
                  webLink: 'https://outlook.office365.com/owa/?itemid=1',
                },
              ],
              '@odata.nextLink': 'https://graph.microsoft.com/v1.0/me/calendarView?$skip=10',
            },
          },
        },
      ],
      data: {
        events: [
          {
            id: 'AAMkAGI1',
            subject: 'Demo',
            start: '2026-12-01T10:00:00.000Z',
            end: '2026-12-01T10:30:00.000Z',
            isCancelled: false,
            webLink: 'https://outlook.office365.com/owa/?itemid=1',
          },
        ],
        more: true,
      },
    },
    {
      action: 'reschedule_event',
      params: { eventId: 'AAMkAGI1', start: '2026-12-02T11:00:00', end: '2026-12-02T11:30:00', timeZone: 'Europe/Paris' },
      exchanges: [
        {
          request: {
            method: 'PATCH',
            path: '/v1.0/me/events/AAMkAGI1',
            headers: { ...H, prefer: 'outlook.timezone="UTC"', 'content-type': 'application/json' },
            body: { start: { dateTime: '2026-12-02T11:00:00', timeZone: 'Europe/Paris' }, end: { dateTime: '2026-12-02T11:30:00', timeZone: 'Europe/Paris' } },
          },
          response: {
            status: 200,
            body: {
              id: 'AAMkAGI1',
              start: utc('2026-12-02T10:00:00.0000000'),
              end: utc('2026-12-02T10:30:00.0000000'),
              webLink: 'https://outlook.office365.com/owa/?itemid=1',
            },
          },
        },
      ],
      data: { id: 'AAMkAGI1', start: '2026-12-02T10:00:00.000Z', end: '2026-12-02T10:30:00.000Z', webLink: 'https://outlook.office365.com/owa/?itemid=1' },
    },
    {
      action: 'cancel_event',
      params: { eventId: 'AAMkAGI1', comment: 'The caller cancelled' },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/v1.0/me/events/AAMkAGI1/cancel',
            headers: { ...H, 'content-type': 'application/json' },
            body: { comment: 'The caller cancelled' },
          },
          response: { status: 202 },
        },
      ],
      data: { id: 'AAMkAGI1', cancelled: true },
    },
  ],
};
