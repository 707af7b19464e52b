import { actionHarness } from '../helpers/integration-harness';
import { vendorSpec } from '../helpers/vendor-spec';

const calcom = actionHarness('calcom', ['get_slots', 'create_booking', 'reschedule_booking', 'cancel_booking'], { kind: 'api_key', secrets: { api_key: 'cal_live_test' } });
const spec = vendorSpec('calcom.json');

/**
 * Cal.com's description offers a booking body as oneOf plain / instant / recurring input, and the recurring input is the
 * plain one plus an optional field, so every plain booking matches both and fails `oneOf`. When the verdict says the
 * body passed the plain input (index 0), the body is valid: drop the body verdicts (the rest are the instant branch's).
 */
function bookingProblems(problems: string[]): string[] {
  const passedPlain = problems.some((p) => /^body must match exactly one schema in oneOf .*"passingSchemas":\[0,2\]/.test(p));
  return passedPlain ? problems.filter((p) => !p.startsWith('body') && !p.startsWith('/')) : problems;
}

describe('calcom', () => {
  test('get_slots asks for an event type’s free slots with the slots API version', async () => {
    calcom.fake.on('GET', '/v2/slots', { body: { status: 'success', data: { '2050-09-05': [{ start: '2050-09-05T09:00:00.000Z', end: '2050-09-05T09:30:00.000Z' }] } } });
    const result = await calcom.run('get_slots', { eventTypeId: 42, start: '2050-09-05', end: '2050-09-06', timeZone: 'Europe/Rome' });
    const req = calcom.sent();
    expect(req.method).toBe('GET');
    expect(req.path).toBe('/v2/slots');
    expect(req.query).toEqual({ eventTypeId: '42', start: '2050-09-05', end: '2050-09-06', timeZone: 'Europe/Rome', format: 'range' });
    expect(req.headers.authorization).toBe('Bearer cal_live_test');
    expect(req.headers['cal-api-version']).toBe('2024-09-04');
    expect(spec(req)).toEqual([]);
    expect(result.data).toEqual({ slots: { '2050-09-05': [{ start: '2050-09-05T09:00:00.000Z', end: '2050-09-05T09:30:00.000Z' }] } });
  });

  test('create_booking books with the bookings API version and the attendee as given', async () => {
    calcom.fake.on('POST', '/v2/bookings', {
      status: 201,
      body: { status: 'success', data: { id: 7, uid: 'bk_1', status: 'accepted', start: '2050-09-05T09:00:00.000Z', end: '2050-09-05T09:30:00.000Z', meetingUrl: 'https://cal.video/x' } },
    });
    const params = {
      eventTypeId: 42,
      start: '2050-09-05T09:00:00Z',
      attendee: { name: 'Ada Caller', email: 'ada@example.com', timeZone: 'Europe/Rome', phoneNumber: '+393331234567' },
      bookingFieldsResponses: { reason: 'pricing' },
      metadata: { source: 'voice-agent' },
    };
    const result = await calcom.run('create_booking', params);
    const req = calcom.sent();
    expect([req.method, req.path]).toEqual(['POST', '/v2/bookings']);
    expect(req.headers['cal-api-version']).toBe('2024-08-13');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.body).toEqual(params);
    expect(bookingProblems(spec(req))).toEqual([]);
    expect(result.data).toEqual({ uid: 'bk_1', id: 7, status: 'accepted', start: '2050-09-05T09:00:00.000Z', end: '2050-09-05T09:30:00.000Z', meetingUrl: 'https://cal.video/x' });
  });

  test('a booking with neither an event type id nor a slug and owner is refused before anything is sent', async () => {
    const err = await calcom.fail('create_booking', { start: '2050-09-05T09:00:00Z', attendee: { name: 'A', timeZone: 'UTC' } });
    expect(err.type).toBe('invalid_params');
    expect(err.message).toContain('eventTypeId');
    expect(err.message).toContain('attendee.email: email or phoneNumber is required');
    expect(calcom.fake.requests).toHaveLength(0);
  });

  test('the description check itself catches a booking without its required attendee', () => {
    const problems = spec({ method: 'POST', path: '/v2/bookings', query: {}, headers: { 'cal-api-version': '2024-08-13', 'content-type': 'application/json' }, rawBody: '{"start":"x"}', body: { start: 'x' } });
    expect(problems.join('\n')).toContain("must have required property 'attendee'");
  });

  test('reschedule_booking moves the booking and returns the new one', async () => {
    calcom.fake.on('POST', '/v2/bookings/bk_1/reschedule', { status: 201, body: { status: 'success', data: { id: 8, uid: 'bk_2', status: 'accepted', start: '2050-09-06T10:00:00.000Z' } } });
    const result = await calcom.run('reschedule_booking', { bookingUid: 'bk_1', start: '2050-09-06T10:00:00Z', reschedulingReason: 'Caller asked' });
    const req = calcom.sent();
    expect([req.method, req.path]).toEqual(['POST', '/v2/bookings/bk_1/reschedule']);
    expect(req.headers['cal-api-version']).toBe('2024-08-13');
    expect(req.headers.authorization).toBe('Bearer cal_live_test');
    expect(req.body).toEqual({ start: '2050-09-06T10:00:00Z', reschedulingReason: 'Caller asked' });
    expect(result.data).toEqual({ uid: 'bk_2', id: 8, status: 'accepted', start: '2050-09-06T10:00:00.000Z' });
  });

  test('cancel_booking cancels with the reason', async () => {
    calcom.fake.on('POST', '/v2/bookings/bk_2/cancel', { body: { status: 'success', data: { id: 8, uid: 'bk_2', status: 'cancelled' } } });
    const result = await calcom.run('cancel_booking', { bookingUid: 'bk_2', cancellationReason: 'No longer needed' });
    const req = calcom.sent();
    expect([req.method, req.path]).toEqual(['POST', '/v2/bookings/bk_2/cancel']);
    expect(req.headers['cal-api-version']).toBe('2024-08-13');
    expect(req.body).toEqual({ cancellationReason: 'No longer needed' });
    expect(result.data).toEqual({ uid: 'bk_2', id: 8, status: 'cancelled' });
  });

  test('an unknown booking uid is a not-found failure with Cal.com’s message', async () => {
    calcom.fake.on('POST', '/v2/bookings/nope/cancel', { status: 404, body: { status: 'error', error: { code: 'NotFoundException', message: 'Booking with uid=nope was not found in the database' } } });
    const err = await calcom.fail('cancel_booking', { bookingUid: 'nope' });
    expect(err.type).toBe('vendor_not_found');
    expect(err.message).toContain('Booking with uid=nope was not found');
  });
});
