// A campaign request's rules, shared by the api and the CLI.
import { z } from 'zod';
import { CALL_OUTCOMES, DURATION_PATTERN } from '../journeys/schema';
import { CallWindow } from '../schedule/window-schema';
import { parseIsoDuration } from '../schedule/duration';
import { Tag } from '../leads/rules';

const Uuid = z.guid({ error: 'must be a UUID' });
const Spacing = z
  .string()
  .refine((d) => (parseIsoDuration(d) ?? 0) > 0, 'an ISO-8601 duration such as PT10M or P1D (no years or months)')
  .meta({ pattern: DURATION_PATTERN })
  .describe('Wait between two calls of a lead (ISO-8601 duration)');

/** Who is called: exactly one of a tag, lead ids, an import. */
export const AudienceBody = z.union(
  [
    z.strictObject({ tag: Tag.describe('The leads carrying this tag when the campaign starts') }),
    z.strictObject({ lead_ids: z.array(Uuid).min(1).max(10_000).describe('Leads of the workspace, called in this order') }),
    z.strictObject({ import_id: Uuid.describe('The leads a lead import created or updated (GET /v1/leads/imports/{id})') }),
  ],
  { error: 'must be one of {tag}, {lead_ids}, {import_id}' },
);

/** POST /v1/campaigns's body. */
export const CreateCampaignBody = z
  .strictObject({
    name: z.string().trim().min(1).max(200).describe('A name to know it by'),
    agent: Uuid.describe('The agent that calls'),
    from: z.string().min(1).max(64).optional().describe("Caller id: one of the workspace's numbers; default: from the agent's phone group"),
    audience: AudienceBody,
    window: CallWindow.optional().describe("When a lead may be called, in its time zone (else the workspace's); default the agent's window, else 08:00-21:00"),
    max_concurrent: z.int().min(1).max(500).default(5).describe('Calls of this campaign at once (the workspace cap holds too); default 5'),
    calls_per_minute: z.int().min(1).max(6000).optional().describe('Call starts per minute at most; default: as fast as max_concurrent allows'),
    retries: z.strictObject({ attempts: z.int().min(1).max(10).describe('Further calls after the first, at most'), spacing: Spacing }).optional(),
    retry_on: z.array(z.enum(CALL_OUTCOMES)).min(1).optional().describe('Outcomes that call again (default no_answer and busy)'),
    start_at: z.iso.datetime({ offset: true }).optional().describe('When to start calling (default now)'),
  })
  .refine((b) => b.retry_on === undefined || b.retries !== undefined, { message: 'retry_on needs retries', path: ['retry_on'] })
  .meta({ dependentRequired: { retry_on: ['retries'] } });
