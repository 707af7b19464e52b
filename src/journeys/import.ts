// Importing a journey version: the one code path of POST /v1/journeys and `switchboard journey import`.
import type { Db } from '../db/pool';
import { importJourney, JourneyOfAnotherWorkspace } from './db/journeys';
import { documentedInput, NO_NUL_PATTERN } from '../core/documented';
import { DomainError } from '../core/errors';
import { isUuid } from '../core/ids';
import { storable } from '../core/storable';
import { latestActionVersion } from '../integrations/registry';
import { JourneyDefinitionError, JourneySteps, parseJourneySteps, type JourneyStep } from './schema';

const FIELDS = ['id', 'name', 'steps'];
const MAX_NAME = 200;

/** A definition whose steps do not validate: one readable line per problem (a 400, unlike a stored journey gone bad). */
export class InvalidJourneyDefinition extends DomainError {
  constructor(readonly issues: string[]) {
    super('invalid_fields', `invalid journey: ${issues.join('; ')}`);
  }
}

/** The journey a definition's id names belongs to another workspace: as unknown as any missing journey. */
export class JourneyIdTaken extends DomainError {
  constructor(readonly journeyId: string) {
    super('journey_not_found', 'Journey not found');
  }
}

/** The JSON Schema of a definition, for the OpenAPI document. */
export const JOURNEY_DEFINITION_JSON: Record<string, unknown> = {
  type: 'object',
  required: ['name', 'steps'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', format: 'uuid', description: 'The journey to add a version to (a new journey with this id when unknown); default a new id' },
    name: { type: 'string', minLength: 1, maxLength: MAX_NAME, pattern: NO_NUL_PATTERN, description: "The journey's name" },
    steps: { ...documentedInput(JourneySteps), description: 'The steps, run in order unless a branch, goto or end says otherwise' },
  },
};

/** An automation step imported without a version runs the version current now, whatever the action becomes later. */
function pinActionVersion(step: JourneyStep): JourneyStep {
  if (step.kind !== 'automation' || step.version !== undefined) return step;
  const version = latestActionVersion(step.automationType, step.action);
  return version === undefined ? step : { ...step, version };
}

/** Checks a definition {id?, name, steps}; throws a DomainError naming the problem. */
export function parseJourneyDefinition(input: unknown): { id?: string; name: string; steps: JourneyStep[] } {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) throw invalid('a journey is a JSON object {id?, name, steps}');
  const d = input as Record<string, unknown>;
  const unknown = Object.keys(d).find((k) => !FIELDS.includes(k));
  if (unknown !== undefined) throw invalid(`unknown field "${unknown}": a journey has only id, name and steps`);
  if (!d.name || d.steps === undefined) throw invalid('a journey needs "name" and "steps"');
  if (typeof d.name !== 'string' || d.name.length > MAX_NAME || d.name.includes('\u0000')) {
    throw invalid(`journey "name" must be a string of 1–${MAX_NAME} characters without NUL characters`);
  }
  if (d.id !== undefined && (typeof d.id !== 'string' || !isUuid(d.id))) throw invalid('journey "id" must be a UUID');
  if (!storable(d.steps)) throw invalid('journey "steps" must not contain NUL characters or unpaired surrogates');
  try {
    const steps = parseJourneySteps(d.steps).map(pinActionVersion);
    return { ...(d.id !== undefined ? { id: (d.id as string).toLowerCase() } : {}), name: d.name, steps };
  } catch (err) {
    if (err instanceof JourneyDefinitionError) throw new InvalidJourneyDefinition(err.issues);
    throw err;
  }
}

/** Validates a definition and stores it as the journey's next version (its first, for a new journey); nothing is written otherwise. */
export async function importJourneyDefinition(db: Db, workspaceId: string, input: unknown): Promise<{ id: string; version: number }> {
  const definition = parseJourneyDefinition(input);
  try {
    // One transaction: the journey row's lock orders two imports of the same journey, so each gets its own version number.
    return await db.tx((q) => importJourney(q, workspaceId, definition));
  } catch (err) {
    if (err instanceof JourneyOfAnotherWorkspace) throw new JourneyIdTaken(err.journeyId);
    throw err;
  }
}

const invalid = (message: string) => new DomainError('invalid_fields', message);
