import type { IntegrationCases } from '../../helpers/action-cases';

const H = { authorization: 'Bearer zoom-at' };

/** Zoom: OAuth bearer; meetings for the connected user. */
export const zoom: IntegrationCases = {
  integration: 'zoom',
  connection: { kind: 'oauth2', secrets: { access_token: 'zoom-at' } },
  spec: { file: 'zoom.json' },
  cases: [
    {
      action: 'create_meeting',
      params: {
        topic: 'Follow-up call',
        start_time: '2026-03-01T15:00:00Z',
        duration: 30,
        timezone: 'Europe/Berlin',
        agenda: 'Pricing questions',
        settings: { waiting_room: true, join_before_host: false },
      },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/v2/users/me/meetings',
            headers: { ...H, 'content-type': 'application/json' },
            body: {
              topic: 'Follow-up call',
              start_time: '2026-03-01T15:00:00Z',
              duration: 30,
              timezone: 'Europe/Berlin',
              agenda: 'Pricing questions',
              settings: { waiting_room: true, join_before_host: false },
              type: 2,
            },
          },
          response: {
            status: 201,
            body: {
              id: 85746065,
              join_url: 'https://zoom.us/j/85746065',
              start_url: 'https://zoom.us/s/85746065',
              password: 'abc',
              start_time: '2026-03-01T15:00:00Z',
            },
          },
        },
      ],
      data: {
        id: 85746065,
        join_url: 'https://zoom.us/j/85746065',
        start_url: 'https://zoom.us/s/85746065',
        password: 'abc',
        start_time: '2026-03-01T15:00:00Z',
      },
    },
    {
      action: 'create_meeting',
      name: 'for a named host',
      params: { userId: 'host@example.com', topic: 'T', start_time: '2026-03-01T15:00:00+01:00', duration: 15 },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/v2/users/host%40example.com/meetings',
            headers: H,
            body: { topic: 'T', start_time: '2026-03-01T15:00:00+01:00', duration: 15, type: 2 },
          },
          response: { status: 201, body: { id: 1, join_url: 'https://zoom.us/j/1' } },
        },
      ],
      data: { id: 1, join_url: 'https://zoom.us/j/1' },
    },
    {
      action: 'add_registrant',
      params: { meetingId: 85746065, email: 'ada@example.com', first_name: 'Ada', last_name: 'Caller' },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/v2/meetings/85746065/registrants',
            headers: H,
            body: { email: 'ada@example.com', first_name: 'Ada', last_name: 'Caller' },
          },
          response: { status: 201, body: { registrant_id: 'r-1', join_url: 'https://zoom.us/w/85746065?tk=x', id: 85746065 } },
        },
      ],
      data: { registrant_id: 'r-1', join_url: 'https://zoom.us/w/85746065?tk=x' },
      notDescribed: 'zoom.json keeps POST /users/{userId}/meetings only',
    },
  ],
};
