import { z } from 'zod';
import { NO_NUL_PATTERN } from '../../core/documented';

const text = (max: number) => z.string().min(1).max(max).regex(new RegExp(NO_NUL_PATTERN));

/** POST /api/automation/execute body: the spec's 4.6 request, plus async mode. */
export const ExecuteBody = z
  .object({
    automationType: text(100).describe('The integration (slack, hubspot, proxy, google_calendar, …)'),
    nodeId: text(200).optional().describe('The automation node, echoed back'),
    userId: text(100).optional().describe('JWT callers: must be your own user (defaults to the token subject); ignored in superuser mode'),
    nodeParams: z
      .object({
        action: text(100).optional().describe('The action; may be omitted for integrations with a single action'),
        version: z
          .number()
          .int()
          .min(1)
          .max(1000)
          .optional()
          .describe("The action's version (GET /api/automation/integrations lists them); default the latest"),
        params: z
          .record(z.string(), z.unknown())
          .default({})
          .describe("The action's parameters (see GET /api/automation/integrations); customFields resolve from callData.fields"),
      })
      .strict(),
    transcript: z.unknown().optional(),
    context: z.unknown().optional(),
    callData: z.record(z.string(), z.unknown()).optional().describe('Call context; callData.fields feeds custom fields'),
    async: z.boolean().optional().describe('Answer at once and POST the result to callbackUrl'),
    callbackUrl: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .optional()
      .describe('Async mode: receives the envelope, signed like journey webhooks'),
  })
  .strict()
  .refine((b) => !b.async || b.callbackUrl !== undefined, { path: ['callbackUrl'], message: 'required when async is true' });

/** The spec's 4.6 response envelope (also the body of every refusal on the automation routes). */
export const Envelope = z.object({
  requestId: z.string(),
  nodeId: z.string().nullable(),
  automationType: z.string().nullable(),
  success: z.boolean(),
  data: z.unknown(),
  error: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()).describe('action, attempts (vendor requests), runAttempts, superuser, workflowId, errorType, async'),
  timestamp: z.string().describe('ISO-8601'),
  duration: z.number().describe('Milliseconds'),
});

/** GET /api/automation/integrations. */
export const Catalogue = z.object({
  integrations: z.array(
    z.object({
      key: z.string(),
      name: z.string(),
      auth: z.array(z.string()),
      actions: z.array(
        z.object({
          key: z.string(),
          title: z.string(),
          description: z.string().optional(),
          idempotent: z.boolean(),
          idempotentFor: z.string().optional(),
          docs: z.string(),
          input: z.record(z.string(), z.unknown()),
          version: z.number().int().describe('The latest version of the action (what a request without nodeParams.version runs)'),
          versions: z
            .array(z.object({ version: z.number().int(), input: z.record(z.string(), z.unknown()) }))
            .describe('Every version still served, oldest first, with its input; journeys and chat flows stay on the version they were imported with'),
        }),
      ),
    }),
  ),
});

/** GET /api/automation/runs/{requestId}. */
export const StoredRun = z.object({
  requestId: z.string(),
  automationType: z.string(),
  action: z.string(),
  nodeId: z.string().nullable(),
  status: z.enum(['running', 'succeeded', 'failed']),
  success: z.boolean().nullable(),
  error: z.string().nullable(),
  errorType: z.string().nullable(),
  data: z.unknown().describe('Redacted: ids and codes kept, other text replaced'),
  request: z.unknown().describe('Redacted'),
  attempts: z.number(),
  runAttempts: z.number(),
  superuser: z.boolean(),
  async: z.boolean(),
  workflowId: z.string().nullable(),
  duration: z.number().nullable(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
