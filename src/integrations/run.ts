import type { z } from 'zod';
import { resolveCustomFields } from './custom-fields';
import {
  ActionInputError,
  actionVersion,
  isIdempotent,
  VendorError,
  type ActionContext,
  type ActionDefinition,
  type Connection,
  type IntegrationDefinition,
} from './define';
import { VendorClient, type VendorClientOptions } from './vendor-client';
import { actionVersions, findAction, findIntegration, listIntegrations } from './registry';
import { issueLines } from '../core/validation';

/** One action run as the endpoint, the workflow's activity and the bench ask for it. */
export interface RunActionInput {
  /** The spec's automationType. */
  integration: string;
  /** The spec's nodeParams.action; may be omitted for single-action integrations. */
  action?: string;
  /** The action's version (nodeParams.version, or the one a stored step was pinned to); default the latest. */
  version?: number;
  params: unknown;
  connection: Connection;
  idempotencyKey: string;
  call?: ActionContext['call'];
  /** Global base-URL overrides by integration key (configuration; tests). */
  baseUrls?: Record<string, string>;
  ssrfAllowlist?: string[];
  /** Set to true once a request that may have changed something at the vendor was sent. */
  reached?: { acted: boolean };
  /** Exact `address:port` endpoints the guard lets through (the dev stack's vendor sandbox). */
  endpoints?: string[];
  /** Client tuning (timeouts, retries, sleep) for tests and the activity. */
  http?: Partial<Pick<VendorClientOptions, 'timeoutMs' | 'maxAttempts' | 'retryBaseMs' | 'maxRetryAfterMs' | 'maxResponseBytes' | 'sleep'>>;
}

/** What a successful run gives: the action's data and the requests it took. */
export interface RunActionResult {
  data: unknown;
  attempts: number;
  action: string;
}

/** Every problem of a zod failure with its field path (`properties.email: required`), worded as the REST routes word them. */
function zodProblems(error: z.ZodError): string[] {
  return issueLines(error.issues, '(params)');
}

/** Finds the integration and action (the given version, else the latest) or fails listing what exists. */
export function resolveAction(
  integrationKey: string,
  actionKey: string | undefined,
  version?: number,
): { integration: IntegrationDefinition; action: ActionDefinition } {
  const integration = findIntegration(integrationKey);
  if (!integration) {
    const known = listIntegrations().map((i) => i.key);
    throw new ActionInputError('unknown_integration', `unknown automationType "${integrationKey}"; known: ${known.join(', ')}`, known);
  }
  const action = findAction(integration, actionKey, version);
  if (!action && version !== undefined && findAction(integration, actionKey)) {
    const known = actionVersions(integration, findAction(integration, actionKey)!.key).map((a) => String(actionVersion(a)));
    throw new ActionInputError(
      'unknown_action_version',
      `${integration.key}.${actionKey ?? ''} has no version ${version}; versions: ${known.join(', ')}`,
      known,
    );
  }
  if (!action) {
    const known = [...new Set(integration.actions.map((a) => a.key))];
    const what = actionKey === undefined ? 'nodeParams.action is required' : `unknown action "${actionKey}"`;
    throw new ActionInputError('unknown_action', `${what} for ${integration.key}; actions: ${known.join(', ')}`, known);
  }
  return { integration, action };
}

/** Resolves custom fields and validates the params against the action's schema; nothing is sent when they are invalid. */
export function prepareInput(action: ActionDefinition, params: unknown, callData: Record<string, unknown> | undefined): unknown {
  const resolved = resolveCustomFields(params ?? {}, callData);
  const parsed = action.input.safeParse(resolved);
  if (!parsed.success) {
    const problems = zodProblems(parsed.error);
    throw new ActionInputError('invalid_params', `invalid params for ${action.key}: ${problems.join('; ')}`, problems);
  }
  return parsed.data;
}

/** True when the action may run again with these params after an unknown outcome (invalid params: nothing is ever sent). */
export function actionIdempotent(
  integrationKey: string,
  actionKey: string | undefined,
  params: unknown,
  callData: Record<string, unknown> | undefined,
  version?: number,
): boolean {
  try {
    const { action } = resolveAction(integrationKey, actionKey, version);
    return isIdempotent(action, prepareInput(action, params, callData));
  } catch (err) {
    if (err instanceof ActionInputError) return true;
    throw err;
  }
}

/** Runs one action of one integration: resolve, validate, then call the vendor through the shared client. */
export async function runIntegrationAction(input: RunActionInput): Promise<RunActionResult> {
  const { integration, action } = resolveAction(input.integration, input.action, input.version);
  const params = prepareInput(action, input.params, input.call?.callData);
  const idempotent = isIdempotent(action, params);
  const http = new VendorClient({
    ...input.http,
    idempotent,
    onActed: () => {
      if (input.reached) input.reached.acted = true;
    },
    integration,
    connection: input.connection,
    baseUrlOverride: input.baseUrls?.[integration.key],
    ssrfAllowlist: input.ssrfAllowlist,
    endpoints: input.endpoints,
  });
  let data: unknown;
  try {
    data = await action.run(params, { http, connection: input.connection, idempotencyKey: input.idempotencyKey, call: input.call ?? {} });
  } catch (err) {
    if (err instanceof VendorError) err.attempts = http.attempts;
    throw err;
  }
  return { data, attempts: http.attempts, action: action.key };
}
