import { runIntegrationAction } from '../../src/integrations/run';
import { startVendorFake, type VendorFake } from '../helpers/vendor-fake';
import { caseConnection, caseParams } from '../helpers/action-cases';
import { vendorSpec } from '../helpers/vendor-spec';
import { google_calendar as cases } from './cases/google-calendar';
import { vendorFakeRunner } from '../helpers/integration-harness';

const check = vendorSpec('google-calendar.json');
const connection = caseConnection(cases, '');
const EVENTS = '/calendar/v3/calendars/primary/events';

// The requests of the action are the cases in ./cases/google-calendar.ts; these are the replay and the refusals.
describe('google_calendar appointment', () => {
  let fake: VendorFake;
  const run = (params: unknown, idempotencyKey = 'req-1') =>
    runIntegrationAction({
      integration: 'google_calendar',
      action: 'appointment',
      params,
      connection,
      idempotencyKey,
      baseUrls: { google_calendar: fake.url },
      ssrfAllowlist: ['127.0.0.1/8'],
    });

  beforeAll(async () => {
    fake = await startVendorFake();
    fake.on('POST', EVENTS, (req) => ({ status: 200, body: { id: (req.body as { id: string }).id, htmlLink: 'https://calendar.google.com/event?eid=x' } }));
  });
  afterAll(() => fake.stop());
  beforeEach(() => fake.clear());

  it('uses one event id per run, so a replay answered 409 is the same booking', async () => {
    await run(caseParams(cases, 'appointment'), 'same');
    fake.on('POST', EVENTS, { status: 409, body: { error: { code: 409, message: 'The requested identifier already exists.' } } });
    const again = await run(caseParams(cases, 'appointment'), 'same');
    const ids = fake.received('POST', EVENTS).map((r) => (r.body as { id: string }).id);
    expect(ids[0]).toMatch(/^[0-9a-v]{5,1024}$/);
    expect(ids[1]).toBe(ids[0]);
    expect(again.data).toMatchObject({ id: ids[0], existing: true });
    fake.on('POST', EVENTS, (req) => ({ status: 200, body: { id: (req.body as { id: string }).id } }));
  });

  it('fails with no_free_slot when the window is full', async () => {
    fake.on('POST', '/calendar/v3/freeBusy', {
      status: 200,
      body: { calendars: { primary: { busy: [{ start: '2026-12-01T00:00:00Z', end: '2026-12-31T00:00:00Z' }] } } },
    });
    await expect(run({ ...caseParams(cases, 'appointment'), findFreeSlot: true, searchDays: 2 })).rejects.toMatchObject({ type: 'no_free_slot' });
    expect(fake.received('POST', EVENTS)).toHaveLength(0);
  });

  it('the description check can fail: a wrongly typed field and an unknown query parameter are reported', () => {
    const problems = check({
      method: 'POST',
      path: EVENTS,
      query: { sendUpdates: 'sometimes' },
      headers: { 'content-type': 'application/json' },
      rawBody: '{}',
      body: { summary: 5, start: { dateTime: '2026' }, colour: 'red' },
    });
    expect(problems.join('\n')).toMatch(/sendUpdates/);
    expect(problems.join('\n')).toMatch(/summary/);
    expect(problems.join('\n')).toMatch(/colour/);
  });
});

describe('google_calendar depth', () => {
  const h = vendorFakeRunner(cases, 'req-1');

  it('cancel_appointment: an event already deleted (410 Gone) counts as cancelled', async () => {
    h.fake.on('DELETE', `${EVENTS}/evt9`, { status: 410, body: { error: { code: 410, message: 'Resource has been deleted' } } });
    await expect(h.run('cancel_appointment', { eventId: 'evt9' })).resolves.toMatchObject({
      data: { id: 'evt9', cancelled: true, alreadyCancelled: true },
      attempts: 1,
    });
  });

  it('check_availability: a calendar Google cannot read fails instead of looking free', async () => {
    h.fake.on('POST', '/calendar/v3/freeBusy', {
      status: 200,
      body: { calendars: { 'x@example.com': { errors: [{ domain: 'global', reason: 'notFound' }], busy: [] } } },
    });
    await expect(
      h.run('check_availability', { timeMin: '2026-12-01T09:00:00Z', timeMax: '2026-12-01T10:00:00Z', calendarIds: ['x@example.com'] }),
    ).rejects.toMatchObject({ type: 'vendor_rejected', message: expect.stringContaining('notFound') });
    h.fake.on('POST', '/calendar/v3/freeBusy', { status: 200, body: { calendars: { primary: { busy: [] } } } });
    await expect(h.run('check_availability', { timeMin: '2026-12-01T09:00:00Z', timeMax: '2026-12-01T10:00:00Z' })).resolves.toMatchObject({
      data: { free: true, busy: [] },
    });
  });

  it('refuses an empty or reversed window and sends nothing', async () => {
    await expect(h.run('list_events', { timeMin: '2026-12-02T00:00:00Z', timeMax: '2026-12-01T00:00:00Z' })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: [expect.stringMatching(/^timeMax:/)],
    });
    await expect(h.run('reschedule_appointment', { eventId: 'evt1', start: 'tomorrow' })).rejects.toMatchObject({ type: 'invalid_params' });
    expect(h.fake.requests).toHaveLength(0);
  });
});
