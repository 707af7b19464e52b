import { z } from 'zod';
import { STEP_KINDS } from '../schema';
import { NextCursor, PageCursor, PageLimit } from '../../http/page-schemas';

/** Query of GET /v1/journeys. */
export const ListJourneysQuery = z.object({ limit: PageLimit.optional(), cursor: PageCursor.optional() });

const summaryShape = {
  id: z.guid().describe('Journey id (the workflow_id of sendtoworkflow)'),
  name: z.string(),
  current_version: z.int().describe('Newest version: the one new enrollments run'),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime().describe('When the current version was imported'),
  active_enrollments: z.int().describe('Leads enrolled and not yet finished'),
};

/** Body of GET /v1/journeys. */
export const JourneyPage = z.object({
  status: z.literal('success'),
  journeys: z.array(z.object(summaryShape)).describe('Newest first (by creation)'),
  next_cursor: NextCursor,
});

const StepOut = z
  .object({ id: z.string().describe('Step id'), kind: z.enum(STEP_KINDS).describe('Step kind') })
  .catchall(z.unknown())
  .describe("A step as imported: its id, kind and the kind's own fields");

/** Body of GET /v1/journeys/{id}. */
export const JourneyDetail = z.object({
  status: z.literal('success'),
  journey: z.object({
    ...summaryShape,
    steps: z.array(StepOut).describe("The current version's steps, in order"),
    versions: z
      .array(z.object({ version: z.int(), created_at: z.iso.datetime(), steps: z.int().describe('Number of steps') }))
      .describe('Every version, newest first'),
  }),
});
