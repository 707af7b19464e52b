import type { Connection } from '../../src/integrations/define';
import { caseParams } from '../helpers/action-cases';
import { vendorFakeRunner } from '../helpers/integration-harness';
import { vendorSpec } from '../helpers/vendor-spec';
import { nestForm, stripe as cases } from './cases/stripe';

const spec = vendorSpec('stripe.json');

// The requests of every action are the cases in ./cases/stripe.ts; these are the variants, failures and refusals.
describe('stripe', () => {
  const h = vendorFakeRunner(cases, 'req-1');
  const run = (action: string, params: unknown, conn?: Connection) => h.run(action, params, conn);

  it('a connection pinning an API version sends it as Stripe-Version', async () => {
    h.fake.on('POST', '/v1/payment_links', {
      status: 200,
      body: { id: 'plink_1', object: 'payment_link', url: 'https://buy.stripe.com/test_1', active: true },
    });
    await run('create_payment_link', caseParams(cases, 'create_payment_link'), { ...h.connection, settings: { api_version: '2023-08-16' } });
    const [req] = h.fake.requests;
    expect(req!.headers['stripe-version']).toBe('2023-08-16');
    expect(req!.headers['idempotency-key']).toBe('req-1');
    expect(spec(nestForm(req!))).toEqual([]);
  });

  it("surfaces Stripe's error message on 400, without retrying", async () => {
    h.fake.on('POST', '/v1/payment_links', {
      status: 400,
      body: { error: { type: 'invalid_request_error', code: 'resource_missing', param: 'line_items[0][price]', message: "No such price: 'price_missing'" } },
    });
    await expect(run('create_payment_link', { lineItems: [{ price: 'price_missing', quantity: 1 }] })).rejects.toMatchObject({
      type: 'vendor_rejected',
      retryable: false,
      attempts: 1,
      message: expect.stringContaining("No such price: 'price_missing'"),
    });
  });

  it('refuses bad params with every problem and sends nothing', async () => {
    await expect(run('create_payment_link', { lineItems: [{ price: 'prod_x', quantity: 0 }], redirectUrl: 'nope' })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: expect.arrayContaining([
        expect.stringMatching(/^lineItems\.0\.price:/),
        expect.stringMatching(/^lineItems\.0\.quantity:/),
        expect.stringMatching(/^redirectUrl:/),
      ]),
    });
    await expect(run('create_customer', {})).rejects.toMatchObject({ type: 'invalid_params' });
    expect(h.fake.requests).toHaveLength(0);
  });

  it('the description check can fail: a payment link without line items is reported', () => {
    expect(
      spec({
        method: 'POST',
        path: '/v1/payment_links',
        query: {},
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        rawBody: 'currency=usd',
        body: { currency: 'usd' },
      }).join('\n'),
    ).toMatch(/line_items/);
  });
});
