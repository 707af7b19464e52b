import type { Connection } from '../../src/integrations/define';
import { runIntegrationAction } from '../../src/integrations/run';
import { startVendorFake, type VendorFake } from '../helpers/vendor-fake';
import { vendorSpec } from '../helpers/vendor-spec';

const check = vendorSpec('google-calendar.json');
const connection: Connection = { id: 'c1', integration: 'google_calendar', kind: 'oauth2', secrets: { access_token: 'ya29.test' }, settings: {} };
const EVENTS = '/calendar/v3/calendars/primary/events';

describe('google_calendar appointment', () => {
  let fake: VendorFake;
  const run = (params: unknown, idempotencyKey = 'req-1') =>
    runIntegrationAction({ integration: 'google_calendar', action: 'appointment', params, connection, idempotencyKey, baseUrls: { google_calendar: fake.url }, ssrfAllowlist: ['127.0.0.1/8'] });

  beforeAll(async () => {
    fake = await startVendorFake();
    fake.on('POST', EVENTS, (req) => ({ status: 200, body: { id: (req.body as { id: string }).id, htmlLink: 'https://calendar.google.com/event?eid=x' } }));
  });
  afterAll(() => fake.stop());
  beforeEach(() => fake.clear());

  it('creates the event at the wanted time as events.insert describes it', async () => {
    const out = await run({ summary: 'Demo call', start: '2026-12-01T10:00:00+01:00', durationMinutes: 45, timeZone: 'Europe/Paris', attendees: [{ email: 'ada@example.com' }] });
    expect(out.data).toMatchObject({ start: '2026-12-01T09:00:00.000Z', end: '2026-12-01T09:45:00.000Z', existing: false });
    const [req] = fake.received('POST', EVENTS);
    expect(req!.headers.authorization).toBe('Bearer ya29.test');
    expect(req!.query).toEqual({ sendUpdates: 'none' });
    expect(req!.body).toMatchObject({ summary: 'Demo call', start: { dateTime: '2026-12-01T09:00:00.000Z', timeZone: 'Europe/Paris' }, attendees: [{ email: 'ada@example.com' }] });
    expect(check(req!)).toEqual([]);
  });

  it('books the first free slot after asking freeBusy', async () => {
    fake.on('POST', '/calendar/v3/freeBusy', {
      status: 200,
      body: { kind: 'calendar#freeBusy', calendars: { primary: { busy: [{ start: '2026-12-01T09:00:00Z', end: '2026-12-01T09:40:00Z' }, { start: '2026-12-01T10:00:00Z', end: '2026-12-01T10:30:00Z' }] } } },
    });
    const out = await run({ summary: 'Demo', start: '2026-12-01T09:00:00Z', durationMinutes: 30, findFreeSlot: true }, 'req-2');
    // 09:45 would overlap 10:00; the first free 30 minutes on the 15-minute grid start at 10:30.
    expect(out.data).toMatchObject({ start: '2026-12-01T10:30:00.000Z', end: '2026-12-01T11:00:00.000Z' });
    const [fb] = fake.received('POST', '/calendar/v3/freeBusy');
    // freeBusy is not in the stored description (events.insert only): checked by hand.
    expect(fb!.body).toEqual({ timeMin: '2026-12-01T09:00:00.000Z', timeMax: '2026-12-08T09:00:00.000Z', items: [{ id: 'primary' }] });
    expect(check(fake.received('POST', EVENTS)[0]!)).toEqual([]);
  });

  it('uses one event id per run, so a replay answered 409 is the same booking', async () => {
    await run({ summary: 'A', start: '2026-12-01T09:00:00Z' }, 'same');
    fake.on('POST', EVENTS, { status: 409, body: { error: { code: 409, message: 'The requested identifier already exists.' } } });
    const again = await run({ summary: 'A', start: '2026-12-01T09:00:00Z' }, 'same');
    const ids = fake.received('POST', EVENTS).map((r) => (r.body as { id: string }).id);
    expect(ids[0]).toMatch(/^[0-9a-v]{5,1024}$/);
    expect(ids[1]).toBe(ids[0]);
    expect(again.data).toMatchObject({ id: ids[0], existing: true });
    fake.on('POST', EVENTS, (req) => ({ status: 200, body: { id: (req.body as { id: string }).id } }));
  });

  it('fails with no_free_slot when the window is full', async () => {
    fake.on('POST', '/calendar/v3/freeBusy', { status: 200, body: { calendars: { primary: { busy: [{ start: '2026-12-01T00:00:00Z', end: '2026-12-31T00:00:00Z' }] } } } });
    await expect(run({ summary: 'A', start: '2026-12-01T09:00:00Z', findFreeSlot: true, searchDays: 2 })).rejects.toMatchObject({ type: 'no_free_slot' });
    expect(fake.received('POST', EVENTS)).toHaveLength(0);
  });

  it('the description check can fail: a wrongly typed field and an unknown query parameter are reported', () => {
    const problems = check({ method: 'POST', path: EVENTS, query: { sendUpdates: 'sometimes' }, headers: { 'content-type': 'application/json' }, rawBody: '{}', body: { summary: 5, start: { dateTime: '2026' }, colour: 'red' } });
    expect(problems.join('\n')).toMatch(/sendUpdates/);
    expect(problems.join('\n')).toMatch(/summary/);
    expect(problems.join('\n')).toMatch(/colour/);
  });
});
