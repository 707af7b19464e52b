import { ApplicationFailure, Context } from '@temporalio/activity';
import { createHash } from 'node:crypto';
import { connectionFor } from '../../src/automation/run-connection';
import { brokenPublisher } from '../connections/refresh';
import { outcomeEnvelope } from '../../src/automation/envelope';
import { automationOutcomes } from '../../src/automation/outcome-hub';
import { redact, redactMessage } from '../../src/automation/redact';
import type { AutomationOutcome, AutomationRunInput } from '../../src/automation/types';
import type { Config } from '../../src/core/config';
import type { Db } from '../../src/db/pool';
import { beginAutomationAttempt, lastCallOfLead, recordUnsentTry, settleAutomationRun } from '../../src/automation/db/automation-runs';
import { leadForJourney } from '../../src/journeys/db/journey-runtime';
import { presentLead } from '../../src/leads/db/leads';
import { webhookSecrets } from '../../src/webhooks/db/webhook-secrets';
import { ActionInputError, VendorError } from '../../src/integrations/define';
import { actionIdempotent, resolveAction, runIntegrationAction } from '../../src/integrations/run';
import { deliverWebhook } from '../../src/webhooks/webhook';
import { ssrfAllowlist } from '../../src/net/ssrf';
import { sandboxEndpoints } from '../../src/sandbox/endpoint';
import type { Logger } from '../../src/telemetry/log';
import { automationWorkflowId } from '../../src/temporal/ids';

/** A failure the run reports as success:false rather than retrying (input, vendor refusals, connection problems). */
function finalFailure(err: unknown): { type: string; message: string; retryable: boolean; retryAfterMs?: number } | undefined {
  if (err instanceof ActionInputError) return { type: err.type, message: err.message, retryable: false };
  if (err instanceof VendorError) return { type: err.type, message: err.message, retryable: err.retryable, retryAfterMs: err.retryAfterMs };
  const typed = err as { type?: unknown; message?: unknown } | null;
  // The connection store's refresh failure (reconnect_required) and its kin carry a stable type.
  if (typed && typeof typed.type === 'string' && typeof typed.message === 'string') return { type: typed.type, message: typed.message, retryable: false };
  return undefined;
}

/**
 * A synchronous run told by its workflow whether this is its first workflow task (AutomationRunInput.firstTask): its
 * first try there skips recording itself as running; a later try may follow tries that ran without a row.
 */
const skipsFirstBegin = (input: AutomationRunInput) => input.firstTask !== undefined && !input.callbackUrl;

const idempotent = (input: AutomationRunInput) => actionIdempotent(input.automationType, input.action, input.params, input.call.callData, input.version);

/** The ending of a try that follows one which may have reached the vendor, for an action that must not run twice. */
const outcomeUnknown = (input: AutomationRunInput, runAttempts: number): AutomationOutcome => ({
  success: false,
  data: null,
  error:
    `outcome unknown: an earlier try of this run may have reached ${input.automationType} before it stopped (its worker ` +
    `died or it timed out); ${input.action} is not idempotent, so it was not sent again (check ${input.automationType} before running it again)`,
  errorType: 'outcome_unknown',
  attempts: 0,
  runAttempts,
});

/** Automation activities: the run itself (a local activity: one vendor call, then its record) and the async callback. */
export function createAutomationActivities(deps: { db: Db; logger: Logger; config?: Config }) {
  const { db } = deps;
  const allow = deps.config?.SSRF_ALLOWLIST ?? [];
  const baseUrls = deps.config?.INTEGRATION_BASE_URLS ?? {};
  const endpoints = sandboxEndpoints(deps.config);

  const runRow = (input: AutomationRunInput) => ({
    ...input,
    id: input.requestId,
    request: redact({ nodeParams: { action: input.action, params: input.params }, callData: input.call.callData, async: !!input.callbackUrl }),
    workflowId: input.workflowId ?? automationWorkflowId(input.requestId),
    async: !!input.callbackUrl,
  });
  const record = (input: AutomationRunInput, outcome: AutomationOutcome, startedAt: number) =>
    settleAutomationRun(db, runRow(input), {
      success: outcome.success,
      error: outcome.error === null ? null : redactMessage(outcome.error),
      errorType: outcome.errorType,
      data: redact(outcome.data),
      attempts: outcome.attempts,
      runAttempts: outcome.runAttempts,
      durationMs: Date.now() - startedAt,
    });

  /** One try of the action: its outcome, or a throw that Temporal retries. */
  const tryAction = async (input: AutomationRunInput, attempt: number, runAttempts: number): Promise<AutomationOutcome> => {
    const reached = { acted: false };
    try {
      const { integration } = resolveAction(input.automationType, input.action, input.version);
      const connection = await connectionFor(db, input, integration, deps.config, brokenPublisher(deps.config));
      const result = await runIntegrationAction({
        integration: input.automationType,
        action: input.action,
        version: input.version,
        params: input.params,
        connection,
        idempotencyKey: input.requestId,
        call: input.call,
        baseUrls,
        ssrfAllowlist: allow,
        endpoints,
        reached,
      });
      return { success: true, data: result.data ?? null, error: null, errorType: null, attempts: result.attempts, runAttempts };
    } catch (err) {
      const failure = finalFailure(err);
      const retried = !failure || (failure.retryable && attempt < input.maxRunAttempts);
      // The next try of an action that is not idempotent sends only when this one is on record as having sent nothing.
      if (retried && !reached.acted && !idempotent(input)) await recordUnsentTry(db, runRow(input), runAttempts);
      if (!failure) throw err;
      if (retried) throw ApplicationFailure.create({ type: failure.type, message: failure.message, nextRetryDelay: failure.retryAfterMs });
      const attempts = err instanceof VendorError ? (err.attempts ?? 0) : 0;
      return { success: false, data: null, error: failure.message, errorType: failure.type, attempts, runAttempts };
    }
  };

  return {
    /**
     * Runs the action once (the shared client retries 429/5xx within the attempt) and records the outcome. A retryable
     * failure before the last attempt is thrown (Temporal retries, honouring Retry-After); any other ends the run.
     */
    async executeAutomation(input: AutomationRunInput): Promise<AutomationOutcome> {
      const startedAt = Date.now();
      const attempt = Context.current().info.attempt;
      let runAttempts = 1;
      let unsentTries = 0;
      // The first try of a synchronous run writes once, its ending (an async run's row shows it running: its caller
      // already has the request id). Any other try counts itself first, in the database: a local activity's own
      // attempt number starts over when its worker dies.
      if (!(skipsFirstBegin(input) && input.firstTask && attempt === 1)) {
        // With no row yet, the tries before that skipped it count too: this task's earlier attempts, or (a later task) at least one.
        const uncounted = skipsFirstBegin(input) ? attempt - 1 + (input.firstTask ? 0 : 1) : 0;
        const begun = await beginAutomationAttempt(db, runRow(input), 1 + uncounted);
        if ('ended' in begun) {
          // It ran to its end before the worker died: the recorded outcome stands (data as recorded, redacted).
          const e = begun.ended;
          return { success: !!e.success, data: e.data, error: e.error, errorType: e.error_type, attempts: e.attempts, runAttempts: e.run_attempts };
        }
        ({ runAttempts, unsentTries } = begun);
      }
      // An earlier try not on record as having sent nothing may have reached the vendor: only an idempotent action runs again.
      const outcome = runAttempts - 1 > unsentTries && !idempotent(input) ? outcomeUnknown(input, runAttempts) : await tryAction(input, attempt, runAttempts);
      // Recorded, the outcome is final (a later try returns it): a request waiting in this process may answer now.
      if (await record(input, outcome, startedAt)) automationOutcomes.recorded(input.requestId, outcome);
      return outcome;
    },

    /** Records a run whose activity failed for good (its worker kept failing): success false. */
    async recordAutomationFailure(input: AutomationRunInput & { outcome: AutomationOutcome }): Promise<void> {
      if (await record(input, input.outcome, input.receivedAt)) automationOutcomes.recorded(input.requestId, input.outcome);
    },

    /** A journey automation step's callData: the lead (fields: its standard and custom fields) and its last call. */
    async journeyAutomationCallData(c: { workspaceId: string; leadId: string }): Promise<Record<string, unknown>> {
      const [lead, lastCall] = await Promise.all([leadForJourney(db, c.workspaceId, c.leadId), lastCallOfLead(db, c.workspaceId, c.leadId)]);
      if (!lead) throw ApplicationFailure.create({ type: 'lead_not_found', message: 'the lead no longer exists', nonRetryable: true });
      const presented = presentLead(lead);
      const { custom_fields: custom = {}, ...standard } = presented as typeof presented & { custom_fields?: Record<string, unknown> };
      return { lead: presented, fields: { ...standard, ...custom }, ...(lastCall ? { call: lastCall } : {}) };
    },

    /** POSTs the envelope to the async caller's callbackUrl, signed like journey webhooks; retryable failures retry. */
    async deliverAutomationCallback(c: { input: AutomationRunInput; outcome: AutomationOutcome }): Promise<void> {
      const { input } = c;
      const envelope = outcomeEnvelope({ ...input, workflowId: automationWorkflowId(input.requestId) }, c.outcome, { async: true });
      const s = await webhookSecrets(db, input.workspaceId);
      if (!s) throw ApplicationFailure.create({ type: 'workspace_not_found', message: 'the workspace no longer exists', nonRetryable: true });
      const secrets = [s.current, ...(s.previous ? [s.previous] : [])];
      const eventId = `evt_${createHash('sha256').update(`automation\n${input.requestId}`).digest('hex').slice(0, 32)}`;
      const result = await deliverWebhook({ url: input.callbackUrl!, body: JSON.stringify(envelope), secrets, eventId }, { allow: ssrfAllowlist(allow) });
      if (result.ok) return;
      throw ApplicationFailure.create({
        type: result.retryable ? 'callback_unavailable' : 'callback_rejected',
        message: `callback: ${result.reason}`,
        nonRetryable: !result.retryable,
        nextRetryDelay: result.retryAfterMs,
      });
    },
  };
}
