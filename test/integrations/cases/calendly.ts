import type { IntegrationCases } from '../../helpers/action-cases';

const H = { authorization: 'Bearer cal-oauth' };
const EVENT_TYPE = 'https://api.calendly.com/event_types/AAAAAAAAAAAAAAAA';
const EVENT = 'https://api.calendly.com/scheduled_events/BBBBBBBBBBBBBBBB';

/** Calendly: OAuth bearer. */
export const calendly: IntegrationCases = {
  integration: 'calendly',
  connection: { kind: 'oauth2', secrets: { access_token: 'cal-oauth' } },
  cases: [
    {
      action: 'get_available_times',
      params: { event_type: EVENT_TYPE, start_time: '2026-03-02T00:00:00Z', end_time: '2026-03-05T00:00:00Z' },
      exchanges: [
        {
          request: {
            method: 'GET',
            path: '/event_type_available_times',
            query: { event_type: EVENT_TYPE, start_time: '2026-03-02T00:00:00Z', end_time: '2026-03-05T00:00:00Z' },
            headers: H,
            rawBody: '',
          },
          response: {
            body: {
              collection: [
                {
                  status: 'available',
                  start_time: '2026-03-02T15:00:00Z',
                  invitees_remaining: 1,
                  scheduling_url: 'https://calendly.com/acme/30min/2026-03-02T15:00:00Z',
                },
              ],
            },
          },
        },
      ],
      data: { times: [{ start_time: '2026-03-02T15:00:00Z', scheduling_url: 'https://calendly.com/acme/30min/2026-03-02T15:00:00Z', invitees_remaining: 1 }] },
    },
    {
      action: 'create_scheduling_link',
      params: { event_type: EVENT_TYPE },
      exchanges: [
        {
          request: { method: 'POST', path: '/scheduling_links', headers: H, body: { max_event_count: 1, owner: EVENT_TYPE, owner_type: 'EventType' } },
          response: { status: 201, body: { resource: { booking_url: 'https://calendly.com/d/abc-123', owner: EVENT_TYPE, owner_type: 'EventType' } } },
        },
      ],
      data: { booking_url: 'https://calendly.com/d/abc-123', owner: EVENT_TYPE },
    },
    {
      action: 'get_reschedule_link',
      params: { event: EVENT, email: 'ada@example.com' },
      exchanges: [
        {
          request: { method: 'GET', path: '/scheduled_events/BBBBBBBBBBBBBBBB/invitees', query: { status: 'active', email: 'ada@example.com' }, headers: H },
          response: {
            body: {
              collection: [
                {
                  uri: `${EVENT}/invitees/CCCCCCCCCCCCCCCC`,
                  email: 'ada@example.com',
                  status: 'active',
                  reschedule_url: 'https://calendly.com/reschedulings/CCCCCCCCCCCCCCCC',
                  cancel_url: 'https://calendly.com/cancellations/CCCCCCCCCCCCCCCC',
                },
              ],
              pagination: { count: 1, next_page: null },
            },
          },
        },
      ],
      data: {
        invitee: `${EVENT}/invitees/CCCCCCCCCCCCCCCC`,
        reschedule_url: 'https://calendly.com/reschedulings/CCCCCCCCCCCCCCCC',
        cancel_url: 'https://calendly.com/cancellations/CCCCCCCCCCCCCCCC',
      },
    },
    {
      action: 'cancel_event',
      params: { event: EVENT, reason: 'The caller cancelled' },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/scheduled_events/BBBBBBBBBBBBBBBB/cancellation',
            headers: { ...H, 'content-type': 'application/json' },
            body: { reason: 'The caller cancelled' },
          },
          response: {
            status: 201,
            body: { resource: { canceled_by: 'Acme Bot', reason: 'The caller cancelled', canceler_type: 'host', created_at: '2026-03-01T10:00:00.000000Z' } },
          },
        },
      ],
      data: { already_canceled: false, canceled_by: 'Acme Bot', reason: 'The caller cancelled', created_at: '2026-03-01T10:00:00.000000Z' },
    },
  ],
};
