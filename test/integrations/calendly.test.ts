import { actionHarness } from '../helpers/integration-harness';

const calendly = actionHarness('calendly', ['get_available_times', 'create_scheduling_link'], { kind: 'oauth2', secrets: { access_token: 'cal-oauth' } });
const EVENT_TYPE = 'https://api.calendly.com/event_types/AAAAAAAAAAAAAAAA';

describe('calendly', () => {
  test('get_available_times lists an event type’s open start times in the range', async () => {
    calendly.fake.on('GET', '/event_type_available_times', {
      body: { collection: [{ status: 'available', start_time: '2026-03-02T15:00:00Z', invitees_remaining: 1, scheduling_url: 'https://calendly.com/acme/30min/2026-03-02T15:00:00Z' }] },
    });
    const result = await calendly.run('get_available_times', { event_type: EVENT_TYPE, start_time: '2026-03-02T00:00:00Z', end_time: '2026-03-05T00:00:00Z' });
    const req = calendly.sent();
    expect([req.method, req.path]).toEqual(['GET', '/event_type_available_times']);
    expect(req.query).toEqual({ event_type: EVENT_TYPE, start_time: '2026-03-02T00:00:00Z', end_time: '2026-03-05T00:00:00Z' });
    expect(req.headers.authorization).toBe('Bearer cal-oauth');
    expect(req.rawBody).toBe('');
    expect(result.data).toEqual({ times: [{ start_time: '2026-03-02T15:00:00Z', scheduling_url: 'https://calendly.com/acme/30min/2026-03-02T15:00:00Z', invitees_remaining: 1 }] });
  });

  test('create_scheduling_link asks for a single-use link owned by the event type', async () => {
    calendly.fake.on('POST', '/scheduling_links', { status: 201, body: { resource: { booking_url: 'https://calendly.com/d/abc-123', owner: EVENT_TYPE, owner_type: 'EventType' } } });
    const result = await calendly.run('create_scheduling_link', { event_type: EVENT_TYPE });
    const req = calendly.sent();
    expect([req.method, req.path]).toEqual(['POST', '/scheduling_links']);
    expect(req.headers.authorization).toBe('Bearer cal-oauth');
    expect(req.body).toEqual({ max_event_count: 1, owner: EVENT_TYPE, owner_type: 'EventType' });
    expect(result.data).toEqual({ booking_url: 'https://calendly.com/d/abc-123', owner: EVENT_TYPE });
  });

  test('Calendly’s validation message on a 400 is surfaced and not retried', async () => {
    calendly.fake.on('POST', '/scheduling_links', { status: 400, body: { title: 'Invalid Argument', message: 'The supplied parameters are invalid.', details: [{ parameter: 'owner', message: 'is invalid' }] } });
    const err = await calendly.fail('create_scheduling_link', { event_type: EVENT_TYPE });
    expect(err.type).toBe('vendor_rejected');
    expect(err.message).toContain('The supplied parameters are invalid.');
    expect(calendly.fake.requests).toHaveLength(1);
  });

  test('a range over Calendly’s one-week limit is refused before anything is sent', async () => {
    const err = await calendly.fail('get_available_times', { event_type: EVENT_TYPE, start_time: '2026-03-02T00:00:00Z', end_time: '2026-03-10T00:00:00Z' });
    expect(err.type).toBe('invalid_params');
    expect(err.message).toContain('end_time: end_time must be after start_time and at most 7 days later');
    expect(calendly.fake.requests).toHaveLength(0);
  });
});
