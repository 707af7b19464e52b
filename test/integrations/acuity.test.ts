import { caseParams } from '../helpers/action-cases';
import { actionHarness } from '../helpers/integration-harness';
import { acuity as cases } from './cases/acuity';

// The requests of every action are the cases in ./cases/acuity.ts; these are Acuity's refusals.
const acuity = actionHarness(cases);

describe('acuity', () => {
  test('an admin booking goes with ?admin=true, and the time already taken comes back as Acuity’s message', async () => {
    acuity.fake.on('POST', '/api/v1/appointments', {
      status: 400,
      body: { status_code: 400, message: 'The time "2026-03-02T09:00" is not available.', error: 'not_available' },
    });
    const err = await acuity.fail('create_appointment', { ...caseParams(cases, 'create_appointment'), calendarID: 3, admin: true });
    expect(acuity.sent().query).toEqual({ admin: 'true' });
    expect((acuity.sent().body as Record<string, unknown>).admin).toBeUndefined();
    expect(err.type).toBe('vendor_rejected');
    expect(err.message).toContain('is not available');
  });

  test('an admin booking without a calendar is refused before anything is sent', async () => {
    const err = await acuity.fail('create_appointment', { ...caseParams(cases, 'create_appointment'), admin: true });
    expect(err.type).toBe('invalid_params');
    expect(err.message).toContain('calendarID: admin bookings need a calendarID');
    expect(acuity.fake.requests).toHaveLength(0);
  });
});
