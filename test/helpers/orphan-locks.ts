import type { Client } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { temporal } from '@temporalio/proto';

type Event = temporal.api.history.v1.IHistoryEvent;

/** Closes after which the test server takes a lock that only the parent's record of the close releases. */
const NOTIFYING = new Set(['COMPLETED', 'FAILED', 'CANCELLED']);

const closesRun = (e: Event) =>
  Boolean(
    e.workflowExecutionCompletedEventAttributes ||
    e.workflowExecutionFailedEventAttributes ||
    e.workflowExecutionCanceledEventAttributes ||
    e.workflowExecutionTerminatedEventAttributes ||
    e.workflowExecutionTimedOutEventAttributes ||
    e.workflowExecutionContinuedAsNewEventAttributes,
  );

/** The initiated-event id a child's close (or failed start) in the parent's history refers to. */
const childClosed = (e: Event) =>
  (
    e.childWorkflowExecutionCompletedEventAttributes ??
    e.childWorkflowExecutionFailedEventAttributes ??
    e.childWorkflowExecutionCanceledEventAttributes ??
    e.childWorkflowExecutionTimedOutEventAttributes ??
    e.childWorkflowExecutionTerminatedEventAttributes ??
    e.startChildWorkflowExecutionFailedEventAttributes
  )?.initiatedEventId;

/** Every run of a workflow id, newest first (following continue-as-new back). */
async function runsOf(client: Client, workflowId: string): Promise<{ runId: string; events: Event[] }[]> {
  const runs: { runId: string; events: Event[] }[] = [];
  let runId: string | undefined = (await client.workflow.getHandle(workflowId).describe()).runId;
  while (runId) {
    const events: Event[] = (await client.workflow.getHandle(workflowId, runId).fetchHistory()).events ?? [];
    runs.push({ runId, events });
    runId = events[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId || undefined;
  }
  return runs;
}

/** What the runs under some roots come to: children still open, and children that closed after their parent run did. */
export interface Descendants {
  open: string[];
  orphans: string[];
}

/**
 * Walks every run under the root workflow ids, their children's children included. A child the parent run's history
 * never saw close, that closed (completed, failed, canceled) while that run had closed, is an orphan.
 */
export async function descendants(client: Client, roots: string[]): Promise<Descendants> {
  const out: Descendants = { open: [], orphans: [] };
  const seen = new Set<string>();
  const walk = async (workflowId: string): Promise<void> => {
    if (seen.has(workflowId)) return;
    seen.add(workflowId);
    for (const { events } of await runsOf(client, workflowId)) {
      const parentClosed = events.some(closesRun);
      const closedHere = new Set(
        events
          .map(childClosed)
          .filter((id) => id != null)
          .map(Number),
      );
      for (const e of events) {
        const child = e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId;
        if (!child) continue;
        await walk(child);
        if (closedHere.has(Number(e.eventId))) continue;
        const { status } = await client.workflow.getHandle(child).describe();
        if (status.name === 'RUNNING') out.open.push(child);
        else if (parentClosed && NOTIFYING.has(status.name)) out.orphans.push(child);
      }
    }
  };
  for (const root of roots) await walk(root);
  return out;
}

/**
 * Releases the time-skipping locks the test server (1.31.0) leaks for orphaned children, once per child (`released`
 * remembers them). The server's bug (sdk-java#2392, open): a child's close takes a lock "unlocked by the parent" when the
 * parent records the close; a parent run that closed first refuses the notice (NOT_FOUND) and the lock stays for good,
 * so time no longer skips: env.sleep then waits in real time. Our runs start event deliveries (deliverCallEvent,
 * deliverCampaignEvent) as abandoned children just before they end, so most deliveries outlive their parent. Call it
 * only with no child open (a child still running may become an orphan later) and while the test's own lock is held
 * (outside env.sleep), so the count never reaches zero here.
 */
export async function releaseOrphanLocks(env: TestWorkflowEnvironment, client: Client, roots: string[], released: Set<string>): Promise<number> {
  const testService = env.connection.testService;
  if (!testService) throw new Error('not a time-skipping environment');
  const { open, orphans } = await descendants(client, roots);
  if (open.length) throw new Error(`children still open under ${roots.join(', ')}: ${open.join(', ')}`);
  let n = 0;
  for (const child of orphans) {
    if (released.has(child)) continue;
    released.add(child);
    await testService.unlockTimeSkipping({});
    n++;
  }
  return n;
}
