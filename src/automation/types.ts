/** Attempts of an automation run's activity (the workflow's retry policy; the input tells the activity). */
export const AUTOMATION_RUN_ATTEMPTS = 3;

/** Who called the automation endpoint (set on ctx.state.automation by src/auth/http/automation-auth.ts). */
export type { AutomationAuth } from '../auth/callers';

/** The automationRun workflow's input: one action run with its call context. */
export interface AutomationRunInput {
  requestId: string;
  workspaceId: string;
  userId: string | null;
  superuser: boolean;
  automationType: string;
  action: string;
  /** The action's version (pinned by a stored step, or nodeParams.version); absent: the latest. */
  version?: number;
  nodeId: string | null;
  params: unknown;
  call: { callData?: Record<string, unknown>; transcript?: unknown; context?: unknown };
  /** Async mode: where the envelope is POSTed when the run ends. */
  callbackUrl?: string;
  /** Attempts of the run activity (its retry policy's maximum), so the activity knows its last one. */
  maxRunAttempts: number;
  /** When the request arrived (ms), for the envelope's duration in async mode. */
  receivedAt: number;
  /**
   * Set by the workflow (patch automation-first-task): true when the run activity is scheduled by the run's first
   * workflow task (nothing can have run before it), false when by a later one (an earlier task may have run it).
   */
  firstTask?: boolean;
  /**
   * The run that executes it when that is not its own `automation:<requestId>`: a journey's automation step runs
   * inline in the enrollment's run (patch journey-automation-inline), recorded with that run's id.
   */
  workflowId?: string;
}

/** How a run ended. */
export interface AutomationOutcome {
  success: boolean;
  data: unknown;
  error: string | null;
  /** Stable failure type (vendor_rejected, invalid_params, custom_field_missing, reconnect_required, …). */
  errorType: string | null;
  /** Requests sent to the vendor by the run's last attempt. */
  attempts: number;
  /** Attempts of the run activity (2+: a worker died or a retryable failure was retried later). */
  runAttempts: number;
}
