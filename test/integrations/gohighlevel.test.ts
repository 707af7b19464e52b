import { vendorFakeRunner } from '../helpers/integration-harness';
import { gohighlevel as cases } from './cases/gohighlevel';

const CONTACT = 'ocQHyuzHvysMo5N5VsXc';
const CALENDAR = 'BqTwX8QFwXzpegMve9EQ';

// The requests of every action are the cases in ./cases/gohighlevel.ts; these are the variants, failures and refusals.
describe('gohighlevel', () => {
  const h = vendorFakeRunner(cases, 'req-1');
  const { run, waits } = h;

  it('422 surfaces HighLevel’s validation message, without retrying', async () => {
    h.fake.on('POST', '/contacts/upsert', {
      status: 422,
      body: { statusCode: 422, message: ['phone must be a valid phone number'], error: 'Unprocessable Entity' },
    });
    await expect(run('upsert_contact', { phone: '12' })).rejects.toMatchObject({
      type: 'vendor_rejected',
      message: expect.stringContaining('422: phone must be a valid phone number'),
      attempts: 1,
    });
  });

  it('503 is retried with backoff, then succeeds; a 502 on a booking (not idempotent) is not sent again', async () => {
    h.fake.on('POST', '/calendars/events/appointments', { status: 503, body: 'unavailable' }, { status: 201, body: { id: 'appt00000002' } });
    const params = { calendarId: CALENDAR, contactId: CONTACT, startTime: '2026-12-01T10:00:00-06:00' };
    await expect(run('book_appointment', params)).resolves.toMatchObject({ data: { id: 'appt00000002' }, attempts: 2 });
    expect(waits).toHaveLength(1);
    h.fake.on('POST', '/calendars/events/appointments', { status: 502, body: 'bad gateway' }, { status: 201, body: { id: 'appt00000003' } });
    await expect(run('book_appointment', params)).rejects.toMatchObject({ type: 'outcome_unknown', attempts: 1 });
  });

  it('without a location in params or connection, fails naming it and sends nothing', async () => {
    await expect(run('upsert_contact', { email: 'ada@example.com' }, { ...h.connection, settings: {} })).rejects.toMatchObject({
      type: 'invalid_params',
      message: expect.stringContaining('locationId'),
    });
    await expect(run('find_slots', { calendarId: CALENDAR, startDate: '2026-12-03T00:00:00Z', endDate: '2026-12-01T00:00:00Z' })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: ['endDate: endDate must be after startDate'],
    });
    expect(h.fake.requests).toHaveLength(0);
  });
});
