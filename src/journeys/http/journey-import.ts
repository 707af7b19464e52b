import { z } from 'zod';
import { documentAs } from '../../core/documented';
import { importJourneyDefinition, JOURNEY_DEFINITION_JSON } from '../import';
import { defineRoute, workspaceOf } from '../../http/route';

// Every check is the shared module's (the CLI's too), so the body is taken as it comes and documented by that module.
const Definition = documentAs(z.unknown(), JOURNEY_DEFINITION_JSON);

/** POST /v1/journeys: imports a journey's next version, or a new journey (as `switchboard journey import`). */
export const importJourneyRoute = defineRoute({
  method: 'post',
  path: '/v1/journeys',
  tag: 'Journeys',
  summary: 'Import a journey version',
  description:
    'Stores the steps as the next version of the journey `id` (a new journey when no id is given or the id is unknown); new ' +
    'enrollments run the newest version. Validated exactly as `switchboard journey import`: a bad definition → 400 naming every ' +
    "problem, and nothing is stored. Another workspace's journey id → 404. Honours Idempotency-Key.",
  auth: 'apiKey',
  idempotent: true,
  body: Definition,
  example: {
    body: {
      name: 'Onboarding',
      steps: [
        { id: 'welcome', kind: 'tag', tag: 'onboarding' },
        { id: 'pause', kind: 'wait', duration: 'P1D' },
        { id: 'end', kind: 'end' },
      ],
    },
  },
  links: { GetJourney: { operationId: 'getV1JourneysId', parameters: { id: '$response.body#/id' }, description: 'The imported journey' } },
  responses: {
    200: {
      description: 'The version was stored',
      schema: z.object({ status: z.literal('success'), id: z.guid().describe('Journey id'), version: z.int().describe('The new version') }),
    },
    400: { description: 'Not a valid journey definition (every problem named)' },
    404: { description: "The id is another workspace's journey" },
  },
  async handler(input) {
    return { status: 'success' as const, ...(await importJourneyDefinition(input.deps.db, workspaceOf(input), input.body)) };
  },
});
