import { caseParams } from '../helpers/action-cases';
import { actionHarness } from '../helpers/integration-harness';
import { calendly as cases } from './cases/calendly';

// The requests of every action are the cases in ./cases/calendly.ts; these are Calendly's refusals.
const calendly = actionHarness(cases);

describe('calendly', () => {
  test('Calendly’s validation message on a 400 is surfaced and not retried', async () => {
    calendly.fake.on('POST', '/scheduling_links', {
      status: 400,
      body: { title: 'Invalid Argument', message: 'The supplied parameters are invalid.', details: [{ parameter: 'owner', message: 'is invalid' }] },
    });
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

describe('calendly depth', () => {
  test('get_reschedule_link: an event without an active invitee is vendor_not_found', async () => {
    calendly.fake.on('GET', '/scheduled_events/BBBBBBBBBBBBBBBB/invitees', { status: 200, body: { collection: [], pagination: { count: 0 } } });
    await expect(calendly.run('get_reschedule_link', { event: 'BBBBBBBBBBBBBBBB' })).rejects.toMatchObject({ type: 'vendor_not_found' });
    expect(calendly.sent().query).toEqual({ status: 'active' });
  });

  test("cancel_event: Calendly's refusal of a second cancellation counts as cancelled; another 403 asks to reconnect", async () => {
    calendly.fake.on('POST', '/scheduled_events/BBBBBBBBBBBBBBBB/cancellation', {
      status: 403,
      body: { title: 'Permission Denied', message: 'Event is already canceled' },
    });
    await expect(calendly.run('cancel_event', { event: 'BBBBBBBBBBBBBBBB' })).resolves.toMatchObject({
      data: { already_canceled: true, canceled_by: null },
      attempts: 1,
    });
    calendly.fake.on('POST', '/scheduled_events/BBBBBBBBBBBBBBBB/cancellation', {
      status: 403,
      body: { title: 'Permission Denied', message: 'You do not have permission' },
    });
    await expect(calendly.run('cancel_event', { event: 'BBBBBBBBBBBBBBBB' })).rejects.toMatchObject({ type: 'vendor_auth_failed', attempts: 1 });
  });

  test('an event that is not a Calendly scheduled event is refused before anything is sent', async () => {
    await expect(calendly.run('cancel_event', { event: 'https://evil.example.com/scheduled_events/BBBBBBBBBBBBBBBB' })).rejects.toMatchObject({
      type: 'invalid_params',
    });
    expect(calendly.fake.requests).toHaveLength(0);
  });
});
