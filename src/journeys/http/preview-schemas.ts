import { z } from 'zod';
import { documentAs, documentedInput } from '../../core/documented';
import { CreateLeadBody } from '../../leads/http/lead-schemas';
import { STEP_KINDS } from '../schema';

/** Body of POST /v1/journeys/{id}/preview: exactly one of lead_id and record (the handler states the rule's message). */
export const PreviewBody = documentAs(
  z.strictObject({
    lead_id: z.string().max(100).optional(),
    record: z.record(z.string(), z.unknown()).optional(),
    at: z.iso.datetime({ offset: true }).optional(),
  }),
  {
    type: 'object',
    additionalProperties: false,
    properties: {
      lead_id: { type: 'string', format: 'uuid', description: 'UUID of a lead on file in this workspace' },
      record: {
        ...documentedInput(CreateLeadBody),
        description: 'A lead not on file: phone (required) and its fields, as sendtoworkflow takes them; not stored',
      },
      at: { type: 'string', format: 'date-time', description: 'When the preview starts (its virtual clock; default now)' },
    },
    oneOf: [
      { required: ['record'], not: { required: ['lead_id'] } },
      { required: ['lead_id'], not: { required: ['record'] } },
    ],
  },
);

const PreviewStepOut = z.object({
  step: z.string().describe('Step id'),
  kind: z.enum(STEP_KINDS),
  at: z.iso.datetime().describe('When the step would end (virtual time: waits advance it, none takes real time)'),
  action: z
    .string()
    .describe('What it would do: wait, add_tag, remove_tag, update_lead, send_webhook, branch, goto, end, call, skip, run_automation, send_trigger'),
  outcome: z.string().describe('The outcome the next branch sees (a call, automation or webhook outcome is assumed: the detail says so)'),
  detail: z
    .string()
    .nullable()
    .describe('Why: the wait and when it ends, the branch case that held and every case, the window a call waits for, a do-not-call skip'),
});

/** Body of the preview's answer. */
export const PreviewAnswer = z.object({
  status: z.literal('success'),
  workflow_id: z.string().describe('The preview run in Temporal (journey-preview:<uuid>), to inspect in its UI'),
  journey_id: z.guid(),
  version: z.int().describe('The version previewed (the newest)'),
  lead_id: z.guid().nullable().describe('The lead previewed; null for a record'),
  started_at: z.iso.datetime(),
  ended_at: z.iso.datetime().describe('When the last step would be done'),
  result: z.enum(['completed', 'failed']).describe('How the enrollment would end'),
  step_limit_reached: z.boolean().describe('The journey loops: the preview stopped after 100 steps'),
  steps: z.array(PreviewStepOut).describe('Every step the run would take, in order'),
});
