import { journeyDetail, listJourneys, type JourneySummaryRow } from '../db/journey-list';
import { notFound } from '../../http/api-error';
import { isUuid } from '../../core/ids';
import { encodeCursor } from '../../http/cursor';
import { keysetPage } from '../../http/keyset-page';
import { defineRoute, workspaceOf } from '../../http/route';
import { JourneyDetail, JourneyPage, ListJourneysQuery } from './journey-list-schemas';

const TAG = 'Journeys';
/** The 404 of the /v1/journeys/{id} routes. */
export const JOURNEY_NOT_FOUND = 'Journey not found';

const summary = (j: JourneySummaryRow) => ({
  id: j.id,
  name: j.name,
  current_version: j.current_version,
  created_at: j.created_at.toISOString(),
  updated_at: j.updated_at.toISOString(),
  active_enrollments: j.active_enrollments,
});

/** GET /v1/journeys: the workspace's journeys, newest first, a page at a time. */
export const listJourneysRoute = defineRoute({
  method: 'get',
  path: '/v1/journeys',
  tag: TAG,
  summary: 'List journeys',
  description: "Newest first by creation time, with each journey's current version and active enrollments; pass next_cursor as cursor for the next page.",
  auth: 'apiKey',
  query: ListJourneysQuery,
  example: { query: { limit: 20, cursor: encodeCursor({ at: '2026-06-01T12:00:00.000000Z', id: '3f2b8c4e-9a61-4d2f-b7e3-5c1a0d9e8f47' }) } },
  responses: {
    200: { description: 'A page of journeys', schema: JourneyPage },
    400: { description: 'A malformed limit or cursor' },
  },
  async handler(input) {
    const ws = workspaceOf(input);
    const { page, next_cursor } = await keysetPage(input.query, (limit, after) => listJourneys(input.deps.db, ws, limit, after));
    return { status: 'success' as const, journeys: page.map(summary), next_cursor };
  },
});

/** GET /v1/journeys/{id}: one journey with its current steps and its versions. */
export const getJourneyRoute = defineRoute({
  method: 'get',
  path: '/v1/journeys/:id',
  tag: TAG,
  summary: 'Get a journey',
  description: "The journey's current definition (its steps, with ids and kinds) and the list of its versions. Another workspace's journey is a 404.",
  auth: 'apiKey',
  example: { params: { id: '3f2b8c4e-9a61-4d2f-b7e3-5c1a0d9e8f47' } },
  responses: {
    200: { description: 'The journey', schema: JourneyDetail },
    404: { description: 'Journey not found' },
  },
  async handler(input) {
    const ws = workspaceOf(input);
    const id = input.params.id ?? '';
    const journey = isUuid(id) ? await journeyDetail(input.deps.db, ws, id) : undefined;
    if (!journey) throw notFound(JOURNEY_NOT_FOUND);
    return {
      status: 'success' as const,
      journey: {
        ...summary(journey),
        steps: journey.steps,
        versions: journey.versions.map((v) => ({ version: v.version, created_at: v.created_at.toISOString(), steps: v.steps })),
      },
    };
  },
});
