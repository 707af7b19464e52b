import { caseParams } from '../helpers/action-cases';
import { actionHarness } from '../helpers/integration-harness';
import { vendorSpec } from '../helpers/vendor-spec';
import { zoom as cases } from './cases/zoom';

// The requests of every action are the cases in ./cases/zoom.ts; these are a refusal and the check's liveness.
const zoom = actionHarness(cases);

describe('zoom', () => {
  test('a start time without an offset is refused before anything is sent', async () => {
    const err = await zoom.fail('create_meeting', { ...caseParams(cases, 'create_meeting'), start_time: '2026-03-01 15:00', duration: 0 });
    expect(err.type).toBe('invalid_params');
    expect(err.message).toMatch(/start_time/);
    expect(err.message).toMatch(/duration/);
    expect(zoom.fake.requests).toHaveLength(0);
  });

  test('the description check can fail: a meeting with a wrongly typed duration is reported', () => {
    const body = { topic: 'T', type: 2, duration: 'half an hour' };
    expect(
      vendorSpec('zoom.json')({
        method: 'POST',
        path: '/v2/users/me/meetings',
        query: {},
        headers: { 'content-type': 'application/json' },
        rawBody: JSON.stringify(body),
        body,
      }).length,
    ).toBeGreaterThan(0);
  });
});
