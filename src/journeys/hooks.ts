import { randomUUID } from 'node:crypto';
import { checkSubscriptionUrl } from '../calls/events-url';
import type { Config } from '../core/config';
import type { Db } from '../db/pool';
import { subscribeJourneyHook, type JourneyHookRow } from './db/journey-hooks';
import { currentJourneySteps } from '../nocode/db/nocode-options';
import { DomainError } from '../core/errors';
import { ssrfAllowlist } from '../net/ssrf';

/** How many REST hooks a workspace may hold. */
const MAX_JOURNEY_HOOKS = 100;
/** The live platform's message for an unknown journey. */
const JOURNEY_NOT_FOUND = 'Workflow not found';

/** A step of a stored version that outside platforms can subscribe to. */
export interface TriggerOption {
  id: string;
  name?: string;
}

/** The trigger steps of the journey's newest version; 404 when the workspace has no such journey. */
export async function triggerSteps(
  db: Db,
  workspaceId: string,
  journeyId: string,
): Promise<{ steps: { id: string; kind: string }[]; triggers: TriggerOption[] }> {
  const stored = await currentJourneySteps(db, workspaceId, journeyId);
  if (!stored) throw new DomainError('journey_not_found', JOURNEY_NOT_FOUND);
  const steps = stored.filter(
    (s): s is { id: string; kind: string; name?: string } => !!s && typeof s === 'object' && typeof (s as { id?: unknown }).id === 'string',
  );
  return { steps, triggers: steps.filter((s) => s.kind === 'trigger').map((s) => ({ id: s.id, ...(typeof s.name === 'string' ? { name: s.name } : {}) })) };
}

/**
 * Subscribes a URL to a journey's trigger step: the journey must be the workspace's (404), the step one of its current
 * trigger steps (404 unknown, 400 another kind), the URL public or in SSRF_ALLOWLIST (400). The same step and URL
 * again answers the same hook.
 */
export async function subscribeToTrigger(
  deps: { db: Db; config: Config },
  workspaceId: string,
  s: { journeyId: string; stepId: string; url: string; platform: string },
): Promise<{ hook: JourneyHookRow; created: boolean }> {
  const { steps } = await triggerSteps(deps.db, workspaceId, s.journeyId);
  const step = steps.find((x) => x.id === s.stepId);
  if (!step) throw new DomainError('journey_step_not_found', `Node not found: the journey's current version has no step ${s.stepId}`);
  if (step.kind !== 'trigger')
    throw new DomainError('invalid_fields', `automation_node_id: step ${s.stepId} is a ${step.kind} step; only trigger steps can be subscribed to`);
  let url: URL;
  try {
    url = await checkSubscriptionUrl(s.url, { allow: ssrfAllowlist(deps.config.SSRF_ALLOWLIST) });
  } catch (err) {
    throw new DomainError('invalid_fields', `webhook_url: ${(err as Error).message}`);
  }
  const hook = { id: randomUUID(), workspaceId, journeyId: s.journeyId, stepId: s.stepId, url: url.href, platform: s.platform };
  const result = await subscribeJourneyHook(deps.db, hook, MAX_JOURNEY_HOOKS).catch((err: unknown) => {
    // The journey was deleted between the check and the insert.
    if ((err as { code?: string }).code === '23503') throw new DomainError('journey_not_found', JOURNEY_NOT_FOUND);
    throw err;
  });
  if (!result) throw new DomainError('hook_limit_reached', `A workspace can have at most ${MAX_JOURNEY_HOOKS} hooks`);
  return result;
}
