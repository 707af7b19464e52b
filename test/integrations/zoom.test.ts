import { actionHarness } from '../helpers/integration-harness';
import { vendorSpec } from '../helpers/vendor-spec';

const zoom = actionHarness('zoom', ['create_meeting', 'add_registrant'], { kind: 'oauth2', secrets: { access_token: 'zoom-at' } });
const spec = vendorSpec('zoom.json');

describe('zoom', () => {
  test('create_meeting schedules a type-2 meeting for the connected user', async () => {
    zoom.fake.on('POST', '/users/me/meetings', {
      status: 201,
      body: { id: 85746065, join_url: 'https://zoom.us/j/85746065', start_url: 'https://zoom.us/s/85746065', password: 'abc', start_time: '2026-03-01T15:00:00Z' },
    });
    const result = await zoom.run('create_meeting', {
      topic: 'Follow-up call',
      start_time: '2026-03-01T15:00:00Z',
      duration: 30,
      timezone: 'Europe/Berlin',
      agenda: 'Pricing questions',
      settings: { waiting_room: true, join_before_host: false },
    });
    const req = zoom.sent();
    expect([req.method, req.path]).toEqual(['POST', '/users/me/meetings']);
    expect(req.headers.authorization).toBe('Bearer zoom-at');
    expect(req.body).toEqual({
      topic: 'Follow-up call',
      start_time: '2026-03-01T15:00:00Z',
      duration: 30,
      timezone: 'Europe/Berlin',
      agenda: 'Pricing questions',
      settings: { waiting_room: true, join_before_host: false },
      type: 2,
    });
    // The base path (/v2) is the integration's; the fake serves the paths beneath it.
    expect(spec({ ...req, path: `/v2${req.path}` })).toEqual([]);
    expect(result.data).toEqual({ id: 85746065, join_url: 'https://zoom.us/j/85746065', start_url: 'https://zoom.us/s/85746065', password: 'abc', start_time: '2026-03-01T15:00:00Z' });
  });

  test('create_meeting for a named host puts the host in the path', async () => {
    zoom.fake.on('POST', '/users/host%40example.com/meetings', { status: 201, body: { id: 1, join_url: 'https://zoom.us/j/1' } });
    await zoom.run('create_meeting', { userId: 'host@example.com', topic: 'T', start_time: '2026-03-01T15:00:00+01:00', duration: 15 });
    const req = zoom.sent();
    expect(req.path).toBe('/users/host%40example.com/meetings');
    expect(spec({ ...req, path: `/v2${req.path}` })).toEqual([]);
  });

  test('add_registrant registers the caller and returns their own join link', async () => {
    zoom.fake.on('POST', '/meetings/85746065/registrants', { status: 201, body: { registrant_id: 'r-1', join_url: 'https://zoom.us/w/85746065?tk=x', id: 85746065 } });
    const result = await zoom.run('add_registrant', { meetingId: 85746065, email: 'ada@example.com', first_name: 'Ada', last_name: 'Caller' });
    const req = zoom.sent();
    expect([req.method, req.path]).toEqual(['POST', '/meetings/85746065/registrants']);
    expect(req.headers.authorization).toBe('Bearer zoom-at');
    expect(req.body).toEqual({ email: 'ada@example.com', first_name: 'Ada', last_name: 'Caller' });
    expect(result.data).toEqual({ registrant_id: 'r-1', join_url: 'https://zoom.us/w/85746065?tk=x' });
  });

  test('a start time without an offset is refused before anything is sent', async () => {
    const err = await zoom.fail('create_meeting', { topic: 'T', start_time: '2026-03-01 15:00', duration: 0 });
    expect(err.type).toBe('invalid_params');
    expect(err.message).toMatch(/start_time/);
    expect(err.message).toMatch(/duration/);
    expect(zoom.fake.requests).toHaveLength(0);
  });
});
