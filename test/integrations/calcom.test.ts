import { actionHarness } from '../helpers/integration-harness';
import { vendorSpec } from '../helpers/vendor-spec';
import { calcom as cases } from './cases/calcom';

// The requests of every action are the cases in ./cases/calcom.ts; these are the refusals and the check's liveness.
const calcom = actionHarness(cases);
const spec = vendorSpec('calcom.json');

describe('calcom', () => {
  test('a booking with neither an event type id nor a slug and owner is refused before anything is sent', async () => {
    const err = await calcom.fail('create_booking', { start: '2050-09-05T09:00:00Z', attendee: { name: 'A', timeZone: 'UTC' } });
    expect(err.type).toBe('invalid_params');
    expect(err.message).toContain('eventTypeId');
    expect(err.message).toContain('attendee.email: email or phoneNumber is required');
    expect(calcom.fake.requests).toHaveLength(0);
  });

  test('the description check itself catches a booking without its required attendee', () => {
    const problems = spec({
      method: 'POST',
      path: '/v2/bookings',
      query: {},
      headers: { 'cal-api-version': '2024-08-13', 'content-type': 'application/json' },
      rawBody: '{"start":"x"}',
      body: { start: 'x' },
    });
    expect(problems.join('\n')).toContain("must have required property 'attendee'");
  });

  test('an unknown booking uid is a not-found failure with Cal.com’s message', async () => {
    calcom.fake.on('POST', '/v2/bookings/nope/cancel', {
      status: 404,
      body: { status: 'error', error: { code: 'NotFoundException', message: 'Booking with uid=nope was not found in the database' } },
    });
    const err = await calcom.fail('cancel_booking', { bookingUid: 'nope' });
    expect(err.type).toBe('vendor_not_found');
    expect(err.message).toContain('Booking with uid=nope was not found');
  });
});
