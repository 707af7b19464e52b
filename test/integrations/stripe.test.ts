import type { Connection } from '../../src/integrations/define';
import { runIntegrationAction } from '../../src/integrations/run';
import { startVendorFake, type RecordedRequest, type VendorFake } from '../helpers/vendor-fake';
import { vendorSpec } from '../helpers/vendor-spec';

const spec = vendorSpec('stripe.json');
const connection: Connection = { id: 'c1', integration: 'stripe', kind: 'api_key', secrets: { api_key: 'sk_test_123' }, settings: {} };

/** Stripe's form keys are deepObject brackets (`line_items[0][price]`); the description validates the nested shape. */
function nest(flat: Record<string, string>): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(flat)) {
    const parts = key.replace(/\]/g, '').split('[');
    let at: any = root;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const next = parts[i + 1];
      if (last) at[part] = value;
      else at = at[part] ??= /^\d+$/.test(next!) ? [] : {};
    });
  }
  return root;
}
const check = (req: RecordedRequest) => spec({ ...req, body: nest(req.body as Record<string, string>) });

describe('stripe', () => {
  let fake: VendorFake;
  const run = (action: string, params: unknown, conn = connection) =>
    runIntegrationAction({ action, integration: 'stripe', params, connection: conn, idempotencyKey: 'req-42', baseUrls: { stripe: fake.url }, ssrfAllowlist: ['127.0.0.1/8'] });

  beforeAll(async () => {
    fake = await startVendorFake();
  });
  afterAll(() => fake.stop());
  beforeEach(() => fake.clear());

  it('create_customer posts a form with bracketed metadata and the Idempotency-Key', async () => {
    fake.on('POST', '/v1/customers', { status: 200, body: { id: 'cus_1', object: 'customer', email: 'ada@example.com', livemode: false } });
    const out = await run('create_customer', { email: 'ada@example.com', name: 'Ada Lovelace', phone: '+14155550100', metadata: { call_id: 'call_9' } });
    expect(out).toEqual({ data: { id: 'cus_1', email: 'ada@example.com', livemode: false }, attempts: 1, action: 'create_customer' });
    const [req] = fake.requests;
    expect(req!.headers.authorization).toBe('Bearer sk_test_123');
    expect(req!.headers['idempotency-key']).toBe('req-42');
    expect(req!.headers['stripe-version']).toBeUndefined();
    expect(req!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(req!.rawBody).toBe('email=ada%40example.com&name=Ada+Lovelace&phone=%2B14155550100&metadata%5Bcall_id%5D=call_9');
    expect(check(req!)).toEqual([]);
  });

  it('create_payment_link writes line items, redirect and options as Stripe\'s nested form keys', async () => {
    fake.on('POST', '/v1/payment_links', { status: 200, body: { id: 'plink_1', object: 'payment_link', url: 'https://buy.stripe.com/test_1', active: true } });
    const conn: Connection = { ...connection, settings: { api_version: '2023-08-16' } };
    const out = await run('create_payment_link', { lineItems: [{ price: 'price_A', quantity: 2 }, { price: 'price_B', quantity: 1 }], redirectUrl: 'https://example.com/thanks', allowPromotionCodes: true, collectPhoneNumber: true }, conn);
    expect(out.data).toEqual({ id: 'plink_1', url: 'https://buy.stripe.com/test_1', active: true });
    const [req] = fake.requests;
    expect(req!.headers['stripe-version']).toBe('2023-08-16');
    expect(req!.headers['idempotency-key']).toBe('req-42');
    expect(req!.body).toEqual({
      'line_items[0][price]': 'price_A',
      'line_items[0][quantity]': '2',
      'line_items[1][price]': 'price_B',
      'line_items[1][quantity]': '1',
      'after_completion[type]': 'redirect',
      'after_completion[redirect][url]': 'https://example.com/thanks',
      allow_promotion_codes: 'true',
      'phone_number_collection[enabled]': 'true',
    });
    expect(check(req!)).toEqual([]);
  });

  it('find_customers follows starting_after pages up to maxResults (no vendor description for reads: exact requests)', async () => {
    const cus = (id: string) => ({ id, object: 'customer', email: 'ada@example.com', name: 'Ada', phone: null, created: 1763900000 });
    fake.on('GET', '/v1/customers', (req) =>
      req.query.starting_after === undefined
        ? { status: 200, body: { object: 'list', data: [cus('cus_1'), cus('cus_2')], has_more: true, url: '/v1/customers' } }
        : { status: 200, body: { object: 'list', data: [cus('cus_3')], has_more: true, url: '/v1/customers' } },
    );
    const out = await run('find_customers', { email: 'ada@example.com', maxResults: 3 });
    expect(out.data).toEqual({ customers: ['cus_1', 'cus_2', 'cus_3'].map((id) => ({ id, email: 'ada@example.com', name: 'Ada', phone: null, created: 1763900000 })), hasMore: true });
    expect(fake.requests.map((r) => [r.method, r.path, r.query])).toEqual([
      ['GET', '/v1/customers', { email: 'ada@example.com', limit: '3' }],
      ['GET', '/v1/customers', { email: 'ada@example.com', limit: '1', starting_after: 'cus_2' }],
    ]);
    expect(fake.requests[0]!.headers.authorization).toBe('Bearer sk_test_123');
    expect(fake.requests[0]!.headers['idempotency-key']).toBeUndefined();
    expect(fake.requests[0]!.rawBody).toBe('');
  });

  it('surfaces Stripe\'s error message on 400, without retrying', async () => {
    fake.on('POST', '/v1/payment_links', { status: 400, body: { error: { type: 'invalid_request_error', code: 'resource_missing', param: 'line_items[0][price]', message: 'No such price: \'price_missing\'' } } });
    await expect(run('create_payment_link', { lineItems: [{ price: 'price_missing', quantity: 1 }] })).rejects.toMatchObject({ type: 'vendor_rejected', retryable: false, attempts: 1, message: expect.stringContaining("No such price: 'price_missing'") });
  });

  it('refuses bad params with every problem and sends nothing', async () => {
    await expect(run('create_payment_link', { lineItems: [{ price: 'prod_x', quantity: 0 }], redirectUrl: 'nope' })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: expect.arrayContaining([expect.stringMatching(/^lineItems\.0\.price:/), expect.stringMatching(/^lineItems\.0\.quantity:/), expect.stringMatching(/^redirectUrl:/)]),
    });
    await expect(run('create_customer', {})).rejects.toMatchObject({ type: 'invalid_params' });
    expect(fake.requests).toHaveLength(0);
  });

  it('the description check can fail: a payment link without line items is reported', () => {
    expect(spec({ method: 'POST', path: '/v1/payment_links', query: {}, headers: { 'content-type': 'application/x-www-form-urlencoded' }, rawBody: 'currency=usd', body: { currency: 'usd' } }).join('\n')).toMatch(/line_items/);
  });
});
