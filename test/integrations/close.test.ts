import { vendorFakeRunner } from '../helpers/integration-harness';
import { close as cases } from './cases/close';

// The requests of every action are the cases in ./cases/close.ts; these are the variants, failures and refusals.
describe('close', () => {
  const h = vendorFakeRunner(cases, 'req-1');
  const { run } = h;

  it('400 surfaces Close’s field errors', async () => {
    h.fake.on('POST', '/api/v1/activity/note/', { status: 400, body: { 'field-errors': { lead_id: 'Object does not exist.' }, errors: [] } });
    await expect(run('add_note', { lead_id: 'lead_gone', note: 'x' })).rejects.toMatchObject({
      type: 'vendor_rejected',
      message: expect.stringContaining('Object does not exist.'),
      attempts: 1,
    });
  });

  it('ids are checked before sending', async () => {
    await expect(run('add_note', { lead_id: 'cont_abc', note: 'x' })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: [expect.stringContaining('lead_id')],
    });
    expect(h.fake.requests).toHaveLength(0);
  });
});
