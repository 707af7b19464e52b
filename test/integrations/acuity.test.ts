import { actionHarness } from '../helpers/integration-harness';

const acuity = actionHarness('acuity', ['get_available_times', 'create_appointment', 'reschedule_appointment', 'cancel_appointment'], { kind: 'basic', secrets: { username: '1234', password: 'acuity-key' } });
const BASIC = `Basic ${Buffer.from('1234:acuity-key').toString('base64')}`;

describe('acuity', () => {
  test('get_available_times asks for one day’s open times of an appointment type, with Basic user id:API key', async () => {
    acuity.fake.on('GET', '/availability/times', { body: [{ time: '2026-03-02T09:00:00-0800', slotsAvailable: 1 }, { time: '2026-03-02T09:30:00-0800', slotsAvailable: 1 }] });
    const result = await acuity.run('get_available_times', { appointmentTypeID: 5, date: '2026-03-02', timezone: 'America/Los_Angeles' });
    const req = acuity.sent();
    expect([req.method, req.path]).toEqual(['GET', '/availability/times']);
    expect(req.query).toEqual({ appointmentTypeID: '5', date: '2026-03-02', timezone: 'America/Los_Angeles' });
    expect(req.headers.authorization).toBe(BASIC);
    expect(result.data).toEqual({ times: [{ time: '2026-03-02T09:00:00-0800', slotsAvailable: 1 }, { time: '2026-03-02T09:30:00-0800', slotsAvailable: 1 }] });
  });

  test('create_appointment books with intake form answers by field id', async () => {
    acuity.fake.on('POST', '/appointments', { body: { id: 880, datetime: '2026-03-02T09:00:00-0800', confirmationPage: 'https://acuityscheduling.com/c/880' } });
    const params = {
      datetime: '2026-03-02T09:00:00-08:00',
      appointmentTypeID: 5,
      firstName: 'Ada',
      lastName: 'Caller',
      email: 'ada@example.com',
      phone: '+15550100',
      fields: [{ id: 11, value: 'Referred by a friend' }],
    };
    const result = await acuity.run('create_appointment', params);
    const req = acuity.sent();
    expect([req.method, req.path]).toEqual(['POST', '/appointments']);
    expect(req.query).toEqual({});
    expect(req.headers.authorization).toBe(BASIC);
    expect(req.body).toEqual(params);
    expect(result.data).toEqual({ id: 880, datetime: '2026-03-02T09:00:00-0800', confirmationPage: 'https://acuityscheduling.com/c/880' });
  });

  test('an admin booking goes with ?admin=true, and the time already taken comes back as Acuity’s message', async () => {
    acuity.fake.on('POST', '/appointments', { status: 400, body: { status_code: 400, message: 'The time "2026-03-02T09:00" is not available.', error: 'not_available' } });
    const err = await acuity.fail('create_appointment', {
      datetime: '2026-03-02T09:00:00-08:00',
      appointmentTypeID: 5,
      firstName: 'Ada',
      lastName: 'Caller',
      email: 'ada@example.com',
      calendarID: 3,
      admin: true,
    });
    expect(acuity.sent().query).toEqual({ admin: 'true' });
    expect((acuity.sent().body as Record<string, unknown>).admin).toBeUndefined();
    expect(err.type).toBe('vendor_rejected');
    expect(err.message).toContain('is not available');
  });

  test('an admin booking without a calendar is refused before anything is sent', async () => {
    const err = await acuity.fail('create_appointment', { datetime: '2026-03-02T09:00:00-08:00', appointmentTypeID: 5, firstName: 'A', lastName: 'B', email: 'a@example.com', admin: true });
    expect(err.type).toBe('invalid_params');
    expect(err.message).toContain('calendarID: admin bookings need a calendarID');
    expect(acuity.fake.requests).toHaveLength(0);
  });

  test('reschedule_appointment PUTs the new time', async () => {
    acuity.fake.on('PUT', '/appointments/880/reschedule', { body: { id: 880, datetime: '2026-03-03T10:00:00-0800' } });
    const result = await acuity.run('reschedule_appointment', { id: 880, datetime: '2026-03-03T10:00:00-08:00' });
    const req = acuity.sent();
    expect([req.method, req.path]).toEqual(['PUT', '/appointments/880/reschedule']);
    expect(req.headers.authorization).toBe(BASIC);
    expect(req.body).toEqual({ datetime: '2026-03-03T10:00:00-08:00' });
    expect(result.data).toEqual({ id: 880, datetime: '2026-03-03T10:00:00-0800' });
  });

  test('cancel_appointment PUTs the cancellation with its note', async () => {
    acuity.fake.on('PUT', '/appointments/880/cancel', { body: { id: 880, canceled: true } });
    const result = await acuity.run('cancel_appointment', { id: 880, cancelNote: 'Caller cancelled by phone' });
    const req = acuity.sent();
    expect([req.method, req.path]).toEqual(['PUT', '/appointments/880/cancel']);
    expect(req.body).toEqual({ cancelNote: 'Caller cancelled by phone' });
    expect(result.data).toEqual({ id: 880, canceled: true });
  });
});
