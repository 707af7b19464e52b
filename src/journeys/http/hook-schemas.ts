import { z } from 'zod';
import { documentAs, EMAIL_JSON, NO_NUL_PATTERN } from '../../core/documented';
import { NextCursor, PageCursor, PageLimit } from '../../http/page-schemas';

const required = (what: string) => ({ error: (i: { input: unknown }) => (i.input === undefined ? 'required' : what) });

/** A journey id in a body. */
export const JourneyIdField = z.guid(required('must be a UUID')).describe('The journey id (the workflow_id of sendtoworkflow)');
/** A journey step id. */
const NodeIdField = z
  .string(required('must be a string'))
  .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'a step id: letters, digits, _ . - only (1-64 characters)')
  .describe('A trigger step id of the journey (from the nodes option list)');
/** A subscriber URL. */
export const WebhookUrlField = z
  .string(required('must be a string'))
  .max(2048)
  .regex(/^https?:\/\//i, 'an http(s) URL')
  .regex(new RegExp(NO_NUL_PATTERN), 'no NUL characters')
  .meta({ format: 'uri' })
  .describe("http(s) URL the step's data is POSTed to; it must be public (or in SSRF_ALLOWLIST)");
const Platform = z
  .string()
  .regex(/^[A-Za-z0-9_.-]{1,40}$/, 'letters, digits, _ . - only (1-40 characters)')
  .optional()
  .describe('Who subscribes (n8n, make, zapier …); default api');

/** Body credentials of the live platform's no-code routes (when no Bearer token is sent). */
export const credentials = {
  user: documentAs(z.email().max(254).optional().describe("A user's email (as for POST /api/auth/login), when no Bearer token is sent"), {
    ...EMAIL_JSON,
    maxLength: 254,
  }),
  password: z.string().min(1).max(1024).optional().describe("That user's password"),
};

/** Subscribe fields (both hosts). */
export const subscribeShape = { journey_id: JourneyIdField, automation_node_id: NodeIdField, webhook_url: WebhookUrlField, platform: Platform };

/** A hook as the api shows it. */
export const Hook = z.object({
  id: z.guid(),
  journey_id: z.guid(),
  automation_node_id: z.string(),
  webhook_url: z.string(),
  platform: z.string(),
  created_at: z.iso.datetime(),
});

/** A hook as GET /v1/hooks lists it: with its latest settled delivery. */
const ListedHook = Hook.extend({
  last_delivery: z
    .object({
      event_id: z.string(),
      outcome: z
        .enum(['delivered', 'rejected', 'blocked', 'failed'])
        .describe('delivered (2xx); rejected (another 4xx); blocked (a private address); failed (retries used up)'),
      http_status: z.int().nullable(),
      detail: z.string().nullable().describe('Why it was not delivered'),
      settled_at: z.iso.datetime(),
    })
    .nullable()
    .describe('The latest event this hook settled; null before the first'),
});

/** Query of GET /v1/hooks. */
export const ListHooksQuery = z.strictObject({ limit: PageLimit.optional(), cursor: PageCursor.optional() });
/** Body of GET /v1/hooks. */
export const HookPage = z.object({ status: z.literal('success'), hooks: z.array(ListedHook).describe('Newest first'), next_cursor: NextCursor });

/** Body of a subscribe answer. */
export const Subscribed = z.object({
  status: z.literal('success'),
  hook_id: z.guid().describe('The hook: the same for the same step and URL'),
  hook: Hook,
});
/** Body of an unsubscribe answer. */
export const Unsubscribed = z.object({ status: z.literal('success'), hook_ids: z.array(z.guid()).describe('The hooks deleted'), message: z.string() });

/** Documentation of a trigger delivery (both hosts). */
export const TRIGGER_DELIVERY =
  'When an enrollment reaches the step, its data is POSTed as JSON `{id, event_id, type:"journey.trigger", created_at, account_id, accountId, ' +
  "journey_id, step_id, step_name, enrollment_id, lead_id, lead, call}` (account_id and accountId are the workspace id; call is the lead's last call or null), " +
  'signed like the journey webhooks (`switchboard-signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`, the workspace\'s ' +
  'webhook secret) with `switchboard-event-id`, the same on every retry. 5xx, 408, 429 and network errors are retried with backoff for about 37 minutes, ' +
  'then recorded as failed; any other 4xx is final. The journey never waits for a subscriber.';
