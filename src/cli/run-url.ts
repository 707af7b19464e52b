import { workflowUrl, type RunUrlSettings } from '../temporal/run-url';

/** A command's result that names its run (`workflowId`) prints the run's Temporal UI address as `workflow_url` instead. */
export function withWorkflowUrl(settings: RunUrlSettings, result: unknown): unknown {
  if (typeof result !== 'object' || result === null || typeof (result as { workflowId?: unknown }).workflowId !== 'string') return result;
  const { workflowId, ...rest } = result as { workflowId: string };
  return { ...rest, workflow_url: workflowUrl(settings, workflowId) };
}

/** The run a response's `Link: <url>; rel="workflow"` header names (src/http/run-link.ts), if any. */
export function linkedRun(link: string | null): string | undefined {
  return link?.match(/<([^>]+)>\s*;\s*rel="workflow"/)?.[1];
}
