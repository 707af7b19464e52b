import type { ParameterizedContext } from 'koa';
import { workflowUrl, type RunUrlSettings } from '../temporal/run-url';
import type { AppState } from './state';

/** The response header naming the durable run a request started or signalled. */
const WORKFLOW_ID_HEADER = 'Switchboard-Workflow-Id';

/**
 * Names the run an answer started or signalled: `Switchboard-Workflow-Id` and `Link: <its Temporal UI page>; rel="workflow"`.
 * The id is kept in ctx.state too, so an Idempotency-Key replay names the same run.
 */
export function nameRun(ctx: ParameterizedContext<AppState>, settings: RunUrlSettings, workflowId: string): void {
  ctx.state.workflowId = workflowId;
  ctx.set(WORKFLOW_ID_HEADER, workflowId);
  ctx.set('Link', `<${workflowUrl(settings, workflowId)}>; rel="workflow"`);
}

/** A domain result that carries its run's id: names the run and answers the rest (the body keeps the spec's shape). */
export function answerNamingRun<T extends { workflowId: string }>(
  input: { ctx: ParameterizedContext<AppState>; deps: { config: RunUrlSettings } },
  result: T,
): Omit<T, 'workflowId'> {
  const { workflowId, ...answer } = result;
  nameRun(input.ctx, input.deps.config, workflowId);
  return answer;
}
