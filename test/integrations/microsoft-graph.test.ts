import type { Connection } from '../../src/integrations/define';
import { runIntegrationAction } from '../../src/integrations/run';
import { startVendorFake, type VendorFake } from '../helpers/vendor-fake';

// Microsoft's Graph OpenAPI is too large to keep in ../shared/vendor-apis/ (see its INDEX.md): exact requests only,
// written from the sendMail and create-event reference pages.
const connection: Connection = { id: 'c1', integration: 'microsoft_graph', kind: 'oauth2', secrets: { access_token: 'eyJ0.graph' }, settings: {} };

describe('microsoft_graph', () => {
  let fake: VendorFake;
  const sleeps: number[] = [];
  const run = (action: string, params: unknown, idempotencyKey = 'req-1') =>
    runIntegrationAction({ action, integration: 'microsoft_graph', params, connection, idempotencyKey, baseUrls: { microsoft_graph: `${fake.url}/v1.0` }, ssrfAllowlist: ['127.0.0.1/8'], http: { sleep: async (ms) => void sleeps.push(ms) } });

  beforeAll(async () => {
    fake = await startVendorFake();
  });
  afterAll(() => fake.stop());
  beforeEach(() => {
    fake.clear();
    sleeps.length = 0;
  });

  it('send_email posts the message to /me/sendMail (202, no body)', async () => {
    fake.on('POST', '/v1.0/me/sendMail', { status: 202 });
    const out = await run('send_email', { to: ['ada@example.com'], cc: ['ops@example.com'], subject: 'Summary', body: '<b>Thanks</b>', contentType: 'HTML' });
    expect(out).toEqual({ data: { accepted: true }, attempts: 1, action: 'send_email' });
    const [req] = fake.requests;
    expect(req!.headers.authorization).toBe('Bearer eyJ0.graph');
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.body).toEqual({
      message: { subject: 'Summary', body: { contentType: 'HTML', content: '<b>Thanks</b>' }, toRecipients: [{ emailAddress: { address: 'ada@example.com' } }], ccRecipients: [{ emailAddress: { address: 'ops@example.com' } }] },
      saveToSentItems: true,
    });
  });

  it('send_email from a shared mailbox goes to /users/{mailbox}/sendMail', async () => {
    fake.on('POST', '/v1.0/users/sales%40contoso.com/sendMail', { status: 202 });
    await run('send_email', { to: ['ada@example.com'], subject: 's', body: 't', mailbox: 'sales@contoso.com', saveToSentItems: false });
    expect(fake.requests[0]!.path).toBe('/v1.0/users/sales%40contoso.com/sendMail');
    expect(fake.requests[0]!.body).toMatchObject({ message: { body: { contentType: 'Text', content: 't' } }, saveToSentItems: false });
  });

  it('create_event sends the run\'s key as transactionId, so a replay creates the event once', async () => {
    fake.on('POST', '/v1.0/me/events', { status: 201, body: { id: 'AAMk1', webLink: 'https://outlook.office365.com/owa/?itemid=AAMk1', onlineMeeting: { joinUrl: 'https://teams.microsoft.com/l/meetup-join/x' } } });
    const out = await run('create_event', { subject: 'Demo', start: '2026-12-01T10:00:00', end: '2026-12-01T10:30:00', timeZone: 'Europe/Paris', body: 'Booked by phone', location: 'Office', attendees: [{ email: 'ada@example.com', name: 'Ada' }], isOnlineMeeting: true }, 'req-evt');
    expect(out.data).toEqual({ id: 'AAMk1', webLink: 'https://outlook.office365.com/owa/?itemid=AAMk1', onlineMeetingUrl: 'https://teams.microsoft.com/l/meetup-join/x' });
    const [req] = fake.requests;
    expect(req!.body).toEqual({
      subject: 'Demo',
      start: { dateTime: '2026-12-01T10:00:00', timeZone: 'Europe/Paris' },
      end: { dateTime: '2026-12-01T10:30:00', timeZone: 'Europe/Paris' },
      transactionId: 'req-evt',
      body: { contentType: 'Text', content: 'Booked by phone' },
      location: { displayName: 'Office' },
      attendees: [{ emailAddress: { address: 'ada@example.com', name: 'Ada' }, type: 'required' }],
      isOnlineMeeting: true,
      onlineMeetingProvider: 'teamsForBusiness',
    });
  });

  it('create_event in a named calendar, retried on 503 with the same transactionId, then failing', async () => {
    fake.on('POST', '/v1.0/me/calendars/AAMkCal/events', { status: 503, headers: { 'retry-after': '1' }, body: { error: { code: 'ServiceNotAvailable', message: 'Service is unavailable' } } });
    await expect(run('create_event', { subject: 'x', start: '2026-12-01T10:00', end: '2026-12-01T11:00', calendarId: 'AAMkCal' }, 'req-9')).rejects.toMatchObject({ type: 'vendor_unavailable', attempts: 3, message: expect.stringContaining('Service is unavailable') });
    expect(sleeps).toEqual([1000, 1000]);
    expect(fake.requests.map((r) => (r.body as { transactionId: string }).transactionId)).toEqual(['req-9', 'req-9', 'req-9']);
  });

  it('find_free_slots asks getSchedule in UTC and returns the free slots around busy and tentative items', async () => {
    fake.on('POST', '/v1.0/me/calendar/getSchedule', {
      status: 200,
      body: {
        value: [
          { scheduleId: 'ada@contoso.com', availabilityView: '2200', scheduleItems: [{ status: 'Busy', start: { dateTime: '2026-12-01T09:00:00.0000000', timeZone: 'UTC' }, end: { dateTime: '2026-12-01T09:40:00.0000000', timeZone: 'UTC' } }] },
          { scheduleId: 'bob@contoso.com', availabilityView: '0010', scheduleItems: [{ status: 'Tentative', start: { dateTime: '2026-12-01T10:00:00.0000000', timeZone: 'UTC' }, end: { dateTime: '2026-12-01T10:15:00.0000000', timeZone: 'UTC' } }, { status: 'Free', start: { dateTime: '2026-12-01T10:30:00.0000000', timeZone: 'UTC' }, end: { dateTime: '2026-12-01T11:00:00.0000000', timeZone: 'UTC' } }] },
        ],
      },
    });
    const out = await run('find_free_slots', { from: '2026-12-01T10:00:00+01:00', to: '2026-12-01T12:00:00+01:00', durationMinutes: 30, schedules: ['ada@contoso.com', 'bob@contoso.com'], maxSlots: 3 });
    // Window 09:00–11:00 UTC; 09:00–09:40 busy and 10:00–10:15 tentative (the Free item does not block): 09:45 would
    // overlap 10:00, so only 10:15 and 10:30 fit before the window ends.
    expect(out.data).toEqual({ slots: [{ start: '2026-12-01T10:15:00.000Z', end: '2026-12-01T10:45:00.000Z' }, { start: '2026-12-01T10:30:00.000Z', end: '2026-12-01T11:00:00.000Z' }], busy: 2 });
    const [req] = fake.requests;
    expect(req!.headers.prefer).toBe('outlook.timezone="UTC"');
    expect(req!.body).toEqual({ schedules: ['ada@contoso.com', 'bob@contoso.com'], startTime: { dateTime: '2026-12-01T09:00:00.000', timeZone: 'UTC' }, endTime: { dateTime: '2026-12-01T11:00:00.000', timeZone: 'UTC' }, availabilityViewInterval: 15 });
    // Without schedules, a mailbox or the connection's email there is nobody to ask: nothing is sent.
    fake.clear();
    await expect(run('find_free_slots', { from: '2026-12-01T10:00:00Z', to: '2026-12-01T12:00:00Z' })).rejects.toMatchObject({ type: 'invalid_params', problems: [expect.stringMatching(/^schedules:/)] });
    expect(fake.requests).toHaveLength(0);
  });

  it('an expired token (401) asks to reconnect', async () => {
    fake.on('POST', '/v1.0/me/sendMail', { status: 401, body: { error: { code: 'InvalidAuthenticationToken', message: 'Access token has expired or is not yet valid.' } } });
    await expect(run('send_email', { to: ['ada@example.com'], subject: 's', body: 't' })).rejects.toMatchObject({ type: 'vendor_auth_failed', attempts: 1, message: expect.stringMatching(/expired.*reconnect/) });
  });

  it('refuses bad params with every problem and sends nothing', async () => {
    await expect(run('create_event', { subject: 'x', start: '2026-12-01T10:00:00+01:00', end: '2026-12-01T09:00:00', mailbox: 'a/b' })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: expect.arrayContaining([expect.stringMatching(/^start:/), expect.stringMatching(/^mailbox:/)]),
    });
    await expect(run('create_event', { subject: 'x', start: '2026-12-01T10:00:00', end: '2026-12-01T09:00:00' })).rejects.toMatchObject({ problems: [expect.stringMatching(/^end: end must be after start/)] });
    expect(fake.requests).toHaveLength(0);
  });
});
