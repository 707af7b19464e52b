import { runIntegrationAction } from '../../src/integrations/run';
import { startVendorFake, type VendorFake } from '../helpers/vendor-fake';
import { caseConnection, caseParams } from '../helpers/action-cases';
import { vendorSpec } from '../helpers/vendor-spec';
import { google_calendar as cases } from './cases/google-calendar';

const check = vendorSpec('google-calendar.json');
const connection = caseConnection(cases, '');
const EVENTS = '/calendar/v3/calendars/primary/events';

// The requests of the action are the cases in ./cases/google-calendar.ts; these are the replay and the refusals.
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
    fake.on('POST', '/calendar/v3/freeBusy', { status: 200, body: { calendars: { primary: { busy: [{ start: '2026-12-01T00:00:00Z', end: '2026-12-31T00:00:00Z' }] } } } });
    await expect(run({ ...caseParams(cases, 'appointment'), findFreeSlot: true, searchDays: 2 })).rejects.toMatchObject({ type: 'no_free_slot' });
    expect(fake.received('POST', EVENTS)).toHaveLength(0);
  });

  it('the description check can fail: a wrongly typed field and an unknown query parameter are reported', () => {
    const problems = check({ method: 'POST', path: EVENTS, query: { sendUpdates: 'sometimes' }, headers: { 'content-type': 'application/json' }, rawBody: '{}', body: { summary: 5, start: { dateTime: '2026' }, colour: 'red' } });
    expect(problems.join('\n')).toMatch(/sendUpdates/);
    expect(problems.join('\n')).toMatch(/summary/);
    expect(problems.join('\n')).toMatch(/colour/);
  });
});
