import { z } from 'zod';
import { defineAction } from '../define';
import { createHeaders, metadata, metadataForm } from './form';

const input = z
  .object({
    email: z.email().max(512).optional(),
    name: z.string().min(1).max(256).optional(),
    phone: z.string().min(1).max(20).optional(),
    description: z.string().max(350).optional(),
    metadata,
  })
  .strict()
  .refine((p) => p.email || p.name || p.phone, { message: 'give at least email, name or phone', path: ['email'] });

const output = z.object({ id: z.string(), email: z.string().nullable(), livemode: z.boolean() });

/** Creates a customer (POST /v1/customers); the Idempotency-Key makes a replay return the same customer. */
export default defineAction({
  key: 'create_customer',
  title: 'Create a customer',
  input,
  output,
  idempotent: true,
  idempotencyHeader: 'Idempotency-Key',
  docs: 'https://docs.stripe.com/api/customers/create',
  async run(p, { http, connection, idempotencyKey }) {
    const res = await http.request<{ id: string; email: string | null; livemode: boolean }>({
      method: 'POST',
      path: '/v1/customers',
      headers: createHeaders(connection, idempotencyKey),
      form: { email: p.email, name: p.name, phone: p.phone, description: p.description, ...metadataForm(p.metadata) },
    });
    return { id: res.body.id, email: res.body.email ?? null, livemode: res.body.livemode };
  },
});
