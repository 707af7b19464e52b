import { z } from 'zod';

/** Body of POST and PATCH /v1/lead/sendtoworkflow. */
export const SendBody = z
  .object({
    workflow_id: z.string().min(1).max(100).describe('Journey UUID (the journey id, not a flow id)'),
    record: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('Lead data: phone (required), first_name, last_name, email, company, timezone, and custom fields the workspace defines'),
    lead_id: z.string().max(100).optional().describe('UUID of a lead on file'),
  })
  .describe('Exactly one of record and lead_id');

/** The spec's success body. */
export const Sent = z.object({
  status: z.literal('success'),
  lead_id: z.guid(),
  workflow_assigned: z.literal(true),
  message: z.literal('Lead successfully added to workflow'),
  ignored_fields: z.array(z.string()).optional().describe('Fields of record that were not stored: not standard and not defined custom fields'),
});

/** One enrollment as GET /v1/lead/enrollments lists it. */
export const Enrollment = z.object({
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
