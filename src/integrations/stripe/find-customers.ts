import { z } from 'zod';
import { defineAction } from '../define';

const input = z
  .object({
    email: z.email().max(512).describe('Customers with exactly this email (Stripe matches it case-sensitively)'),
    maxResults: z.number().int().min(1).max(500).default(10).describe('Stop after this many customers (pages of up to 100 are followed)'),
  })
  .strict();

const customer = z.object({ id: z.string(), email: z.string().nullable(), name: z.string().nullable(), phone: z.string().nullable(), created: z.number() });
const output = z.object({ customers: z.array(customer), hasMore: z.boolean() });

interface Page {
  data: Array<z.infer<typeof customer>>;
  has_more: boolean;
}

/** Looks customers up by email (GET /v1/customers, following `starting_after` pages), e.g. before creating one. */
export default defineAction({
  key: 'find_customers',
  title: 'Find customers by email',
  input,
  output,
  idempotent: true,
  docs: 'https://docs.stripe.com/api/customers/list',
  async run(p, { http }) {
    const customers: Array<z.infer<typeof customer>> = [];
    let after: string | undefined;
    for (;;) {
      const limit = Math.min(100, p.maxResults - customers.length);
      const res = await http.request<Page>({ method: 'GET', path: '/v1/customers', query: { email: p.email, limit, starting_after: after } });
      for (const c of res.body.data) customers.push({ id: c.id, email: c.email ?? null, name: c.name ?? null, phone: c.phone ?? null, created: c.created });
      const last = res.body.data.at(-1);
      if (!res.body.has_more || !last || customers.length >= p.maxResults) return { customers, hasMore: res.body.has_more };
      after = last.id;
    }
  },
});
