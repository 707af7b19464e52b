import type { Connection } from '../../src/integrations/define';
import { vendorFakeRunner } from '../helpers/integration-harness';
import { vendorSpec } from '../helpers/vendor-spec';
import { gmail as cases } from './cases/gmail';

const check = vendorSpec('gmail.json');
const SEND = '/gmail/v1/users/me/messages/send';

// The requests of every action are the cases in ./cases/gmail.ts; these are the variants, failures and refusals.
describe('gmail send_email', () => {
  const h = vendorFakeRunner(cases, 'req-1');
  const run = (params: unknown, conn?: Connection) => h.run('send_email', params, conn);

  it("surfaces Google's 400 message", async () => {
    h.fake.on('POST', SEND, { status: 400, body: { error: { code: 400, message: 'Invalid To header', status: 'INVALID_ARGUMENT' } } });
    await expect(run({ to: ['ada@example.com'], subject: 's', text: 't' })).rejects.toMatchObject({
      type: 'vendor_rejected',
      attempts: 1,
      message: expect.stringContaining('Invalid To header'),
    });
  });

  it('refuses bad params with every problem and sends nothing', async () => {
    await expect(run({ to: ['nope'], subject: '' })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: expect.arrayContaining([expect.stringMatching(/^to\.0:/), expect.stringMatching(/^subject:/)]),
    });
    await expect(run({ to: ['ada@example.com'], subject: 's' })).rejects.toMatchObject({ problems: [expect.stringMatching(/^text: give text or html/)] });
    expect(h.fake.requests).toHaveLength(0);
  });

  it('the description check can fail: an unknown field is reported', () => {
    const body = { raw: 'eA', label: 'x' };
    expect(
      check({ method: 'POST', path: SEND, query: {}, headers: { 'content-type': 'application/json' }, rawBody: JSON.stringify(body), body }).join('\n'),
    ).toMatch(/label/);
  });
});
