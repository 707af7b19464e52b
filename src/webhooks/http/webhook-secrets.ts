import { z } from 'zod';
import { rotateWebhookSecret, webhookSecrets, type WebhookSecrets } from '../db/webhook-secrets';
import { notFound } from '../../http/api-error';
import { EVENT_ID_HEADER, SIGNATURE_HEADER } from '../webhook';
import { defineRoute, superuserWorkspaceOf } from '../../http/route';

const Secrets = z.object({
  status: z.literal('success'),
  webhook_secret: z.string().describe('Signs every webhook'),
  previous_webhook_secret: z.string().nullable().describe('The secret the last rotation replaced, while it is still in use; else null'),
  previous_webhook_secret_expires_at: z.iso.datetime().nullable().describe('When the previous secret stops being used'),
});

const RotateBody = z.object({
  grace_period_seconds: z
    .number()
    .int()
    .min(0)
    .max(604_800)
    .default(86_400)
    .describe('How long webhooks stay signed with the replaced secret too (default 24 h, at most 7 days, 0: not at all)'),
});

const superuserOnly = { 403: { description: 'The API key is not a superuser key, or its scopes leave out rest' } };

const present = (s: WebhookSecrets | undefined) => {
  if (!s) throw notFound('Workspace not found');
  return {
    status: 'success' as const,
    webhook_secret: s.current,
    previous_webhook_secret: s.previous,
    previous_webhook_secret_expires_at: s.previousExpiresAt?.toISOString() ?? null,
  };
};

/** GET /v1/journeys/webhook-secret: the secrets that sign the workspace's journey webhooks (superuser keys only). */
export const getWebhookSecret = defineRoute({
  method: 'get',
  path: '/v1/journeys/webhook-secret',
  tag: 'Journeys',
  summary: 'Get the signing secret of journey webhooks',
  description:
    `Every webhook step POSTs JSON with \`${SIGNATURE_HEADER}: t=<unix seconds>,v1=<hex>\`, where v1 is HMAC-SHA256(secret, "<t>.<raw body>"), ` +
    `and \`${EVENT_ID_HEADER}\`, the same on every retry of one step run (drop repeats by it). Reject a t too far from your clock (e.g. 5 minutes). ` +
    'After a rotation, while the previous secret is in its grace period, the header carries one v1 per secret (new first): ' +
    'accept the request when any v1 matches the secret you hold. ' +
    '5xx, 408, 429 and network errors are retried with backoff (Retry-After honoured); any other 4xx is final. One secret per workspace, created on first use. ' +
    'Superuser API keys only.',
  auth: 'apiKey',
  responses: { 200: { description: 'The secrets', schema: Secrets }, ...superuserOnly },
  async handler(input) {
    return present(await webhookSecrets(input.deps.db, superuserWorkspaceOf(input)));
  },
});

/** POST /v1/journeys/webhook-secret/rotate: a new signing secret; the replaced one keeps signing for a grace period. */
export const rotateWebhookSecretRoute = defineRoute({
  method: 'post',
  path: '/v1/journeys/webhook-secret/rotate',
  tag: 'Journeys',
  summary: 'Rotate the signing secret of journey webhooks',
  description:
    'Makes a new secret the one that signs webhooks. For grace_period_seconds the replaced secret signs them too (a second v1 in ' +
    `\`${SIGNATURE_HEADER}\`), so receivers can switch at their own pace; rotating again ends an earlier secret's grace period at once. ` +
    'Superuser API keys only.',
  auth: 'apiKey',
  idempotent: true,
  body: RotateBody,
  example: { body: { grace_period_seconds: 3600 } },
  responses: { 200: { description: 'The new secret, and the previous one while it is in use', schema: Secrets }, ...superuserOnly },
  async handler(input) {
    const workspaceId = superuserWorkspaceOf(input);
    return present(await rotateWebhookSecret(input.deps.db, workspaceId, input.body.grace_period_seconds));
  },
});
