import { ApplicationFailure, WorkflowNotFoundError, WorkflowUpdateFailedError } from '@temporalio/client';
import { DomainError } from '../../core/errors';
import { z } from 'zod';
import { failOrphanedEnrollments } from '../db/enrollments';
import { findLeadById } from '../../leads/db/leads';
import { latestJourneyVersion } from '../db/journeys';
import { notFound } from '../../http/api-error';
import { WORKFLOW_NOT_FOUND } from '../enroll';
import { enrollmentWorkflowId } from '../../temporal/ids';
import { NOT_ACTIVE as NOT_ACTIVE_TYPE, unenrollUpdate } from '../../../workflows/journeys/journey-messages';
import { documentAs, NO_NUL_PATTERN } from '../../core/documented';
import { defineRoute, workspaceOf } from '../../http/route';
import { nameRun } from '../../http/run-link';
import { LEAD_NOT_FOUND } from '../../leads/http/leads';
import { isUuid } from '../../core/ids';
import { updateRefusedByFailedTask } from '../../temporal/update-retry';

const NOT_ACTIVE = 'Lead is not active in this workflow';

const UnenrollBody = z.object({
  workflow_id: z.string().min(1).max(100).meta({ format: 'uuid' }).describe('Journey UUID'),
  lead_id: z.string().min(1).max(100).meta({ format: 'uuid' }).describe('Lead UUID'),
  // The reason is stored as the enrollment's detail: Postgres text cannot hold NUL.
  reason: documentAs(
    z
      .string()
      .min(1)
      .max(200)
      .refine((s) => !s.includes('\u0000'), 'must not contain NUL characters'),
    { type: 'string', minLength: 1, maxLength: 200, pattern: NO_NUL_PATTERN },
  )
    .optional()
    .describe('Kept as the enrollment detail (default "unenrolled")'),
});

const Unenrolled = z.object({
  status: z.literal('success'),
  lead_id: z.guid(),
  workflow_id: z.guid(),
  message: z.literal('Lead removed from workflow'),
});

/** POST /v1/lead/unenroll: stops the lead's open run of a journey and answers once it has (the workflow's `unenroll` update). */
export const unenrollLead = defineRoute({
  method: 'post',
  path: '/v1/lead/unenroll',
  tag: 'Journeys',
  summary: 'Remove a lead from a journey',
  description:
    "Stops the lead's open run of the journey wherever it is (also in the middle of a wait); its enrollment ends with status " +
    'unenrolled and the reason as detail. Answers once the run has stopped and the enrollment is recorded as ended. The lead can ' +
    'be enrolled again later. A lead with no open run → 404.',
  auth: 'apiKey',
  idempotent: true,
  body: UnenrollBody,
  example: { body: { workflow_id: '8d7c6b5a-4e3f-4a1b-9c8d-7e6f5a4b3c2d', lead_id: '3f2b8c4e-9a61-4d2f-b7e3-5c1a0d9e8f47', reason: 'Booked a call' } },
  responses: {
    200: { description: 'The run has stopped; its enrollment is unenrolled', schema: Unenrolled },
    404: { description: '"Workflow not found", "Lead not found", or "Lead is not active in this workflow"' },
  },
  namesRun: {},
  async handler(input) {
    const ws = workspaceOf(input);
    const { db, temporal, config } = input.deps;
    const { workflow_id, lead_id, reason } = input.body;
    if (!isUuid(workflow_id) || (await latestJourneyVersion(db, ws, workflow_id)) === undefined) throw notFound(WORKFLOW_NOT_FOUND);
    if (!isUuid(lead_id) || !(await findLeadById(db, ws, lead_id))) throw notFound(LEAD_NOT_FOUND);
    const workflowId = enrollmentWorkflowId(workflow_id, lead_id);
    try {
      // The open run (no run id): a closed run answers not-found, whatever Postgres has recorded so far. The update
      // resolves once the run has recorded its end, so the enrollment row is final when the 200 is sent.
      const handle = temporal.client.workflow.getHandle(workflowId);
      await handle.executeUpdate(unenrollUpdate, { args: [reason ? { reason } : {}] });
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) {
        // No open run: a row still active lost its run to a termination or timeout; it ends here, where that shows.
        await failOrphanedEnrollments(db, ws, workflow_id, lead_id);
        throw notFound(NOT_ACTIVE);
      }
      // Rejected by its validator: the run is already ending (another unenroll, or its last step).
      if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure && err.cause.type === NOT_ACTIVE_TYPE) throw notFound(NOT_ACTIVE);
      // Still refused for a failed workflow task after the client's sends (update-retry.ts): nothing was changed.
      if (updateRefusedByFailedTask(err))
        throw Object.assign(new DomainError('workflow_unavailable', 'The run cannot take the request right now; retry'), { cause: err });
      throw err;
    }
    nameRun(input.ctx, config, workflowId);
    return { status: 'success' as const, lead_id, workflow_id, message: 'Lead removed from workflow' as const };
  },
});
