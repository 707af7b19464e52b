import { z } from 'zod';
import { workspaceWebhookSecret } from '../../db/repos/journey-runtime';
import { EVENT_ID_HEADER, SIGNATURE_HEADER } from '../../journeys/webhook';
import { defineRoute, workspaceOf } from '../route';

/** GET /v1/journeys/webhook-secret: the secret that signs the workspace's journey webhooks. */
export const getWebhookSecret = defineRoute({
  method: 'get',
  path: '/v1/journeys/webhook-secret',
  tag: 'Journeys',
  summary: 'Get the signing secret of journey webhooks',
  description:
    `Every webhook step POSTs JSON with \`${SIGNATURE_HEADER}: t=<unix seconds>,v1=<hex>\`, where v1 is HMAC-SHA256(secret, "<t>.<raw body>"), ` +
    `and \`${EVENT_ID_HEADER}\`, the same on every retry of one step run (drop repeats by it). Reject a t too far from your clock (e.g. 5 minutes). ` +
    '5xx, 408, 429 and network errors are retried with backoff (Retry-After honoured); any other 4xx is final. One secret per workspace, created on first use.',
  auth: 'apiKey',
  responses: { 200: { description: 'The secret', schema: z.object({ status: z.literal('success'), webhook_secret: z.string() }) } },
  async handler(input) {
    return { status: 'success', webhook_secret: await workspaceWebhookSecret(input.deps.db, workspaceOf(input)) };
  },
});
