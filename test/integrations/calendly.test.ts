import { caseParams } from '../helpers/action-cases';
import { actionHarness } from '../helpers/integration-harness';
import { calendly as cases } from './cases/calendly';

// The requests of every action are the cases in ./cases/calendly.ts; these are Calendly's refusals.
const calendly = actionHarness(cases);

describe('calendly', () => {
  test('Calendly’s validation message on a 400 is surfaced and not retried', async () => {
    calendly.fake.on('POST', '/scheduling_links', { status: 400, body: { title: 'Invalid Argument', message: 'The supplied parameters are invalid.', details: [{ parameter: 'owner', message: 'is invalid' }] } });
    const err = await calendly.fail('create_scheduling_link', caseParams(cases, 'create_scheduling_link'));
    expect(err.type).toBe('vendor_rejected');
    expect(err.message).toContain('The supplied parameters are invalid.');
    expect(calendly.fake.requests).toHaveLength(1);
  });

  test('a range over Calendly’s one-week limit is refused before anything is sent', async () => {
    const err = await calendly.fail('get_available_times', { ...caseParams(cases, 'get_available_times'), end_time: '2026-03-10T00:00:00Z' });
    expect(err.type).toBe('invalid_params');
    expect(err.message).toContain('end_time: end_time must be after start_time and at most 7 days later');
    expect(calendly.fake.requests).toHaveLength(0);
  });
});
