import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import { runSearchAttributes } from '../temporal/search-attributes';
import { taskQueue } from '../temporal/task-queues';

/** The connection.broken event of one breakage: the same id on every retry and in every subscriber's delivery. */
const connectionBrokenEventId = (connectionId: string, brokenAt: Date) => `evt_connection_${connectionId}_broken_${brokenAt.getTime()}`;

/** The workflow delivering one connection event (its id doubles as the idempotency key). */
const connectionEventWorkflowId = (eventId: string) => `connection-event:${eventId}`;

/** What the delivery workflow is asked to send. */
export interface ConnectionEventInput {
  workspaceId: string;
  connectionId: string;
  type: 'connection.broken';
  eventId: string;
  /** When the event happened (the body's created_at, stable across retries). */
  at: string;
}

/** The body POSTed to subscribers: the connection as GET /v1/connections/{id} shows it. */
export const connectionEventBody = (e: ConnectionEventInput, connection: unknown): string =>
  JSON.stringify({ id: e.eventId, type: e.type, created_at: e.at, data: { connection } });

/**
 * Starts the delivery of connection.broken for a connection broken at brokenAt on the automations queue; a second
 * start for the same breakage is the same workflow and is ignored (and delivered subscribers are never sent it again).
 * Resolves the event's id and its delivery's workflow id.
 */
export async function publishConnectionBroken(
  client: Client,
  taskQueuePrefix: string,
  c: { workspaceId: string; connectionId: string; brokenAt: Date },
): Promise<{ eventId: string; workflowId: string }> {
  const eventId = connectionBrokenEventId(c.connectionId, c.brokenAt);
  const input: ConnectionEventInput = {
    workspaceId: c.workspaceId,
    connectionId: c.connectionId,
    type: 'connection.broken',
    eventId,
    at: c.brokenAt.toISOString(),
  };
  const workflowId = connectionEventWorkflowId(eventId);
  try {
    // By name, not through WORKFLOW: the refresh activities import this module, so the workflow's types would close an
    // import circle (activities → here → workflows → activities).
    await client.workflow.start('deliverConnectionEvent', {
      workflowId,
      taskQueue: taskQueue('automations', taskQueuePrefix),
      args: [input],
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
      typedSearchAttributes: runSearchAttributes.deliverConnectionEvent({ workspaceId: c.workspaceId }),
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
  return { eventId, workflowId };
}
