import type { IntegrationCases } from '../../helpers/action-cases';
import type { RecordedRequest } from '../../helpers/vendor-fake';

/** Stripe's form keys are deepObject brackets (`line_items[0][price]`); the description validates the nested shape. */
export function nestForm(req: RecordedRequest): RecordedRequest {
  const root: Record<string, unknown> = {};
  for (const [key, value] of Object.entries((req.body ?? {}) as Record<string, string>)) {
    const parts = key.replace(/\]/g, '').split('[');
    let at: any = root;
    parts.forEach((part, i) => {
      const next = parts[i + 1];
      if (i === parts.length - 1) at[part] = value;
      else at = at[part] ??= /^\d+$/.test(next!) ? [] : {};
    });
  }
  return { ...req, body: root };
}

const H = { authorization: 'Bearer sk_test_123', 'stripe-version': null };
const WRITE = { ...H, 'idempotency-key': '{requestId}', 'content-type': 'application/x-www-form-urlencoded' };
const cus = (id: string) => ({ id, object: 'customer', email: 'ada@example.com', name: 'Ada', phone: null, created: 1763900000 });

/** Stripe: secret key as bearer, form bodies, the run's Idempotency-Key on writes. */
export const stripe: IntegrationCases = {
  integration: 'stripe',
  connection: { kind: 'api_key', secrets: { api_key: 'sk_test_123' } },
  spec: { file: 'stripe.json', prepare: nestForm },
  cases: [
    {
      action: 'create_customer',
      params: { email: 'ada@example.com', name: 'Ada Lovelace', phone: '+14155550100', metadata: { call_id: 'call_9' } },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/v1/customers',
            headers: WRITE,
            body: { email: 'ada@example.com', name: 'Ada Lovelace', phone: '+14155550100', 'metadata[call_id]': 'call_9' },
            rawBody: 'email=ada%40example.com&name=Ada+Lovelace&phone=%2B14155550100&metadata%5Bcall_id%5D=call_9',
          },
          response: { status: 200, body: { id: 'cus_1', object: 'customer', email: 'ada@example.com', livemode: false } },
        },
      ],
      data: { id: 'cus_1', email: 'ada@example.com', livemode: false },
    },
    {
      action: 'create_payment_link',
      params: {
        lineItems: [
          { price: 'price_A', quantity: 2 },
          { price: 'price_B', quantity: 1 },
        ],
        redirectUrl: 'https://example.com/thanks',
        allowPromotionCodes: true,
        collectPhoneNumber: true,
      },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/v1/payment_links',
            headers: WRITE,
            body: {
              'line_items[0][price]': 'price_A',
              'line_items[0][quantity]': '2',
              'line_items[1][price]': 'price_B',
              'line_items[1][quantity]': '1',
              'after_completion[type]': 'redirect',
              'after_completion[redirect][url]': 'https://example.com/thanks',
              allow_promotion_codes: 'true',
              'phone_number_collection[enabled]': 'true',
            },
          },
          response: { status: 200, body: { id: 'plink_1', object: 'payment_link', url: 'https://buy.stripe.com/test_1', active: true } },
        },
      ],
      data: { id: 'plink_1', url: 'https://buy.stripe.com/test_1', active: true },
    },
    {
      action: 'find_customers',
      params: { email: 'ada@example.com', maxResults: 3 },
      exchanges: [
        {
          request: {
            method: 'GET',
            path: '/v1/customers',
            query: { email: 'ada@example.com', limit: '3' },
            headers: { ...H, 'idempotency-key': null },
            rawBody: '',
          },
          response: { status: 200, body: { object: 'list', data: [cus('cus_1'), cus('cus_2')], has_more: true, url: '/v1/customers' } },
        },
        {
          request: { method: 'GET', path: '/v1/customers', query: { email: 'ada@example.com', limit: '1', starting_after: 'cus_2' }, headers: H },
          response: { status: 200, body: { object: 'list', data: [cus('cus_3')], has_more: true, url: '/v1/customers' } },
        },
      ],
      data: {
        customers: ['cus_1', 'cus_2', 'cus_3'].map((id) => ({ id, email: 'ada@example.com', name: 'Ada', phone: null, created: 1763900000 })),
        hasMore: true,
      },
      notDescribed: 'stripe.json keeps the two writes only',
    },
  ],
};
