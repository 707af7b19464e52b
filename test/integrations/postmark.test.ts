import type { Connection } from '../../src/integrations/define';
import { vendorFakeRunner } from '../helpers/integration-harness';
import { postmark as cases } from './cases/postmark';

// Postmark publishes no machine-readable API description (see ../shared/vendor-apis/INDEX.md): exact requests only.

// The requests of every action are the cases in ./cases/postmark.ts; these are the variants, failures and refusals.
describe('postmark', () => {
  const h = vendorFakeRunner(cases, 'req-1');
  const run = (action: string, params: unknown, conn?: Connection) => h.run(action, params, conn);

  it('a 200 whose ErrorCode is not 0 is a failure', async () => {
    h.fake.on('POST', '/email', { status: 200, body: { ErrorCode: 406, Message: 'You tried to send to a recipient that has been marked as inactive.' } });
    await expect(run('send_email', { from: 'a@example.org', to: ['gone@example.com'], subject: 's', text: 't' })).rejects.toMatchObject({
      type: 'vendor_error_in_body',
      retryable: false,
      attempts: 1,
      message: expect.stringContaining('marked as inactive'),
    });
  });

  it("surfaces Postmark's 422 message", async () => {
    h.fake.on('POST', '/email', { status: 422, body: { ErrorCode: 300, Message: "Invalid 'From' address: 'nobody'." } });
    await expect(run('send_email', { from: 'nobody', to: ['ada@example.com'], subject: 's', text: 't' })).rejects.toMatchObject({
      type: 'vendor_rejected',
      attempts: 1,
      message: expect.stringContaining("Invalid 'From' address"),
    });
  });

  it('refuses bad params with every problem and sends nothing', async () => {
    await expect(run('send_template', { from: 'a@example.org', to: ['b@example.com'], templateId: 5, templateAlias: 'x' })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: [expect.stringMatching(/^templateId: give exactly one/)],
    });
    await expect(run('send_email', { from: 'a@example.org', to: 'b@example.com', subject: 's' })).rejects.toMatchObject({
      problems: expect.arrayContaining([expect.stringMatching(/^to:/)]),
    });
    expect(h.fake.requests).toHaveLength(0);
  });
});
