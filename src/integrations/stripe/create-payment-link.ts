import { z } from 'zod';
import { defineAction, type QueryValue } from '../define';
import { createHeaders, metadata, metadataForm } from './form';

const input = z
  .object({
    lineItems: z
      .array(
        z
          .object({
            price: z
              .string()
              .regex(/^price_\w+$/)
              .describe('Price id (price_…)'),
            quantity: z.number().int().min(1).max(999_999),
          })
          .strict(),
      )
      .min(1)
      .max(20)
      .describe('What is sold (up to 20 line items)'),
    redirectUrl: z.url().optional().describe("Where the buyer lands after paying (else Stripe's confirmation page)"),
    allowPromotionCodes: z.boolean().optional(),
    collectPhoneNumber: z.boolean().optional(),
    metadata,
  })
  .strict();

const output = z.object({ id: z.string(), url: z.string(), active: z.boolean() });

/** Creates a shareable payment link (POST /v1/payment_links), e.g. to text to the caller. */
export default defineAction({
  key: 'create_payment_link',
  title: 'Create a payment link',
  input,
  output,
  idempotent: true,
  idempotencyHeader: 'Idempotency-Key',
  docs: 'https://docs.stripe.com/api/payment-link/create',
  async run(p, { http, connection, idempotencyKey }) {
    const form: Record<string, QueryValue> = { ...metadataForm(p.metadata) };
    p.lineItems.forEach((item, i) => {
      form[`line_items[${i}][price]`] = item.price;
      form[`line_items[${i}][quantity]`] = item.quantity;
    });
    if (p.redirectUrl) {
      form['after_completion[type]'] = 'redirect';
      form['after_completion[redirect][url]'] = p.redirectUrl;
    }
    if (p.allowPromotionCodes !== undefined) form.allow_promotion_codes = p.allowPromotionCodes;
    if (p.collectPhoneNumber !== undefined) form['phone_number_collection[enabled]'] = p.collectPhoneNumber;
    const res = await http.request<{ id: string; url: string; active: boolean }>({
      method: 'POST',
      path: '/v1/payment_links',
      headers: createHeaders(connection, idempotencyKey),
      form,
    });
    return { id: res.body.id, url: res.body.url, active: res.body.active };
  },
});
