import { z } from 'zod';

/** A connection as the API shows it: never a secret, only the names of the secrets it holds. */
const ConnectionBody = z.object({
  id: z.guid(),
  user_id: z.guid().nullable().describe("The user whose connection it is; null: the workspace's own"),
  integration: z.string(),
  kind: z.enum(['oauth2', 'api_key', 'basic', 'none']),
  settings: z.record(z.string(), z.string()).describe('Non-secret settings (token_url, client_id, instance_url, portal_id, team_id, …)'),
  secret_names: z.array(z.string()),
  expires_at: z.iso.datetime().nullable().describe("The access token's expiry (OAuth)"),
  health: z.enum(['ok', 'broken']).describe('broken: the vendor refused to renew its token; connect it again to mend it'),
  broken_at: z.iso.datetime().nullable(),
  broken_reason: z.string().nullable(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
});

export const ConnectionList = z.object({ status: z.literal('success'), connections: z.array(ConnectionBody) });
export const ConnectionAnswer = z.object({ status: z.literal('success'), connection: ConnectionBody });
export const ConnectionTestAnswer = z.object({
  status: z.literal('success'),
  tested: z.boolean().describe('false: no vendor-neutral check applies to this connection (not OAuth, or no refresh token)'),
  ok: z.boolean(),
  message: z.string(),
  connection: ConnectionBody,
});
export const ConnectionDeleted = z.object({
  status: z.literal('success'),
  id: z.guid(),
  revoked: z
    .enum(['revoked', 'unsupported', 'failed'])
    .describe('The grant at the vendor: revoked, no revocation endpoint (or no OAuth client configured), or the vendor refused'),
  message: z.string(),
});

export const StartQuery = z.strictObject({
  redirect: z
    .enum(['true', 'false'])
    .optional()
    .describe('false: answer 200 with authorize_url instead of redirecting (a single-page app that navigates itself)'),
  return_url: z
    .string()
    .max(2048)
    .optional()
    .describe('Where the browser goes when the flow ends; must start with one of OAUTH_RETURN_URLS. Absent: a small page'),
});
export const StartAnswer = z.object({
  status: z.literal('success'),
  authorize_url: z
    .string()
    .describe(
      'The connect link (GET /v1/connections/oauth/begin, also in Location): open it once, in the browser that will consent; it sends that browser on to the vendor',
    ),
  expires_at: z.iso.datetime().describe('The flow must end (the callback) before this'),
});

export const BeginQuery = z.object({
  state: z.string().max(512).optional().describe('The flow, as the connect link carries it'),
});

export const CallbackQuery = z.object({
  state: z.string().max(512).optional(),
  code: z.string().max(4096).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(2000).optional(),
});
