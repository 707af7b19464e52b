import type { AutomationOutcome } from './types';

/** The spec's 4.6 response body. */
export interface AutomationEnvelope {
  requestId: string;
  nodeId: string | null;
  automationType: string | null;
  success: boolean;
  data: unknown;
  error: string | null;
  metadata: Record<string, unknown>;
  timestamp: string;
  /** Milliseconds from receiving the request to answering (sync) or to the run's end (async callback). */
  duration: number;
}

/** The envelope for a finished run. */
export function outcomeEnvelope(
  r: { requestId: string; nodeId: string | null; automationType: string; action: string; superuser: boolean; workflowId: string | null; receivedAt: number },
  outcome: AutomationOutcome,
  extra: Record<string, unknown> = {},
): AutomationEnvelope {
  return {
    requestId: r.requestId,
    nodeId: r.nodeId,
    automationType: r.automationType,
    success: outcome.success,
    data: outcome.success ? (outcome.data ?? null) : null,
    error: outcome.error,
    metadata: {
      action: r.action,
      attempts: outcome.attempts,
      runAttempts: outcome.runAttempts,
      superuser: r.superuser,
      workflowId: r.workflowId,
      ...(outcome.errorType ? { errorType: outcome.errorType } : {}),
      ...extra,
    },
    timestamp: new Date().toISOString(),
    duration: Date.now() - r.receivedAt,
  };
}

/** The envelope of a refused request (400/401/403/404/409/…): success false with the reason. */
export function failureEnvelope(
  requestId: string,
  message: string,
  body: { nodeId?: unknown; automationType?: unknown } = {},
  receivedAt = Date.now(),
): AutomationEnvelope {
  return {
    requestId,
    nodeId: typeof body.nodeId === 'string' ? body.nodeId : null,
    automationType: typeof body.automationType === 'string' ? body.automationType : null,
    success: false,
    data: null,
    error: message,
    metadata: {},
    timestamp: new Date().toISOString(),
    duration: Date.now() - receivedAt,
  };
}
