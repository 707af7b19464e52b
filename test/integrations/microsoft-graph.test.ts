import { vendorFakeRunner } from '../helpers/integration-harness';
import { microsoft_graph as cases } from './cases/microsoft-graph';

// Microsoft's Graph OpenAPI is too large to keep in ../shared/vendor-apis/ (see its INDEX.md): exact requests only,
// written from the sendMail and create-event reference pages.

describe('microsoft_graph', () => {
  const h = vendorFakeRunner(cases, 'req-1');
  const { run, waits: sleeps } = h;

  it('send_email from a shared mailbox goes to /users/{mailbox}/sendMail', async () => {
    h.fake.on('POST', '/v1.0/users/sales%40contoso.com/sendMail', { status: 202 });
    await run('send_email', { to: ['ada@example.com'], subject: 's', body: 't', mailbox: 'sales@contoso.com', saveToSentItems: false });
    expect(h.fake.requests[0]!.path).toBe('/v1.0/users/sales%40contoso.com/sendMail');
    expect(h.fake.requests[0]!.body).toMatchObject({ message: { body: { contentType: 'Text', content: 't' } }, saveToSentItems: false });
  });

  it('create_event in a named calendar, retried on 503 with the same transactionId, then failing', async () => {
    h.fake.on('POST', '/v1.0/me/calendars/AAMkCal/events', {
      status: 503,
      headers: { 'retry-after': '1' },
      body: { error: { code: 'ServiceNotAvailable', message: 'Service is unavailable' } },
    });
    await expect(run('create_event', { subject: 'x', start: '2026-12-01T10:00', end: '2026-12-01T11:00', calendarId: 'AAMkCal' })).rejects.toMatchObject({
      type: 'vendor_unavailable',
      attempts: 3,
      message: expect.stringContaining('Service is unavailable'),
    });
    expect(sleeps).toEqual([1000, 1000]);
    expect(h.fake.requests.map((r) => (r.body as { transactionId: string }).transactionId)).toEqual(['req-1', 'req-1', 'req-1']);
  });

  it('find_free_slots without schedules, a mailbox or the connection’s email has nobody to ask: nothing is sent', async () => {
    await expect(run('find_free_slots', { from: '2026-12-01T10:00:00Z', to: '2026-12-01T12:00:00Z' })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: [expect.stringMatching(/^schedules:/)],
    });
    expect(h.fake.requests).toHaveLength(0);
  });

  it('an expired token (401) asks to reconnect', async () => {
    h.fake.on('POST', '/v1.0/me/sendMail', {
      status: 401,
      body: { error: { code: 'InvalidAuthenticationToken', message: 'Access token has expired or is not yet valid.' } },
    });
    await expect(run('send_email', { to: ['ada@example.com'], subject: 's', body: 't' })).rejects.toMatchObject({
      type: 'vendor_auth_failed',
      attempts: 1,
      message: expect.stringMatching(/expired.*reconnect/),
    });
  });

  it('refuses bad params with every problem and sends nothing', async () => {
    await expect(run('create_event', { subject: 'x', start: '2026-12-01T10:00:00+01:00', end: '2026-12-01T09:00:00', mailbox: 'a/b' })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: expect.arrayContaining([expect.stringMatching(/^start:/), expect.stringMatching(/^mailbox:/)]),
    });
    await expect(run('create_event', { subject: 'x', start: '2026-12-01T10:00:00', end: '2026-12-01T09:00:00' })).rejects.toMatchObject({
      problems: [expect.stringMatching(/^end: end must be after start/)],
    });
    expect(h.fake.requests).toHaveLength(0);
  });
});

describe('microsoft_graph depth', () => {
  const h = vendorFakeRunner(cases, 'req-1');

  it("check_availability without schedules needs the connection's email, else sends nothing", async () => {
    await expect(h.run('check_availability', { from: '2026-12-01T09:00:00Z', to: '2026-12-01T10:00:00Z' })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: [expect.stringMatching(/^schedules:/)],
    });
    expect(h.fake.requests).toHaveLength(0);
    h.fake.on('POST', '/v1.0/me/calendar/getSchedule', {
      status: 200,
      body: {
        value: [
          {
            scheduleId: 'me@example.com',
            scheduleItems: [{ status: 'Tentative', start: { dateTime: '2026-12-01T09:00:00.0000000' }, end: { dateTime: '2026-12-01T09:15:00.0000000' } }],
          },
        ],
      },
    });
    const conn = { ...h.connection, settings: { email: 'me@example.com' } };
    await expect(
      h.run('check_availability', { from: '2026-12-01T09:00:00Z', to: '2026-12-01T10:00:00Z', tentativeIsBusy: false }, conn),
    ).resolves.toMatchObject({ data: { free: true, busy: [] } });
    expect(h.fake.requests[0]!.body).toMatchObject({ schedules: ['me@example.com'] });
  });

  it('reschedule_event refuses an end before the start, and an id with a path in it, sending nothing', async () => {
    await expect(h.run('reschedule_event', { eventId: 'AAMk', start: '2026-12-02T11:00:00', end: '2026-12-02T10:00:00' })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: [expect.stringMatching(/^end:/)],
    });
    await expect(h.run('cancel_event', { eventId: '../messages/x' })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: [expect.stringMatching(/^eventId:/)],
    });
    expect(h.fake.requests).toHaveLength(0);
  });
});
