import { z } from 'zod';
import { documentAs, documentedInput } from '../../core/documented';
import { CreateLeadBody } from '../../leads/http/lead-schemas';

const RECORD_DESCRIPTION = 'Lead data: phone (required), first_name, last_name, email, company, timezone, and custom fields the workspace defines';
const Uuid = { type: 'string', format: 'uuid' };

/**
 * Body of POST and PATCH /v1/lead/sendtoworkflow. The handler applies the either-or rule and validates the record (only
 * when it is used: POST enrolls a lead on file as it is); the document says both up front.
 */
export const SendBody = documentAs(
  z
    .object({
      workflow_id: z.string().min(1).max(100),
      record: z.record(z.string(), z.unknown()).optional(),
      lead_id: z.string().max(100).optional(),
    })
    .describe('Exactly one of record and lead_id'),
  {
    type: 'object',
    properties: {
      workflow_id: { ...Uuid, description: 'Journey UUID (the journey id, not a flow id)' },
      record: { ...documentedInput(CreateLeadBody), description: RECORD_DESCRIPTION },
      lead_id: { ...Uuid, description: 'UUID of a lead on file' },
    },
    required: ['workflow_id'],
    oneOf: [
      { required: ['record'], not: { required: ['lead_id'] } },
      { required: ['lead_id'], not: { required: ['record'] } },
    ],
  },
);

export const ADDED = 'Lead successfully added to workflow';
export const ALREADY_IN = 'Lead is already in this workflow: not added again';

const sent = <A extends boolean, M extends string>(assigned: A, message: M) =>
  z.object({
    status: z.literal('success'),
    lead_id: z.guid(),
    workflow_assigned: z.literal(assigned),
    message: z.literal(message),
    ignored_fields: z.array(z.string()).optional().describe('Fields of record that were not stored: not standard and not defined custom fields'),
  });

/** The spec's success body: assigned, or (workflow_assigned false) the lead was already running the journey. */
export const Sent = z.union([sent(true, ADDED), sent(false, ALREADY_IN)]);

/** One enrollment as GET /v1/lead/enrollments lists it. */
const Enrollment = z.object({
  enrollment_id: z.guid(),
  journey_id: z.guid(),
  version: z.int().describe('Journey version this run follows'),
  status: z.enum(['active', 'completed', 'unenrolled', 'failed']),
  current_step: z.string().nullable().describe('Step id it is at (or ended at)'),
  detail: z.string().nullable().describe('Why it ended, for unenrolled and failed runs'),
  started_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
  ended_at: z.iso.datetime().nullable(),
});

/** GET /v1/lead/enrollments's body. */
export const Enrollments = z.object({ status: z.literal('success'), lead_id: z.guid(), enrollments: z.array(Enrollment) });
