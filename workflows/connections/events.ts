// Connection events: one workflow per event, on the automations queue, retried like the call events.
import { proxyActivities } from '@temporalio/workflow';
import type { ConnectionEventActivities } from '../../activities/connections/events';
import type { ConnectionEventInput } from '../../src/connections/events';

/** Subscribers that fail with 5xx, 408, 429 or a network error get the event again with backoff, for up to a day. */
const events = proxyActivities<ConnectionEventActivities>({
  startToCloseTimeout: '1 minute',
  scheduleToCloseTimeout: '24 hours',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '10 minutes' },
});

/** Delivers one connection event (id `connection-event:<eventId>`) until every subscriber took it or refused it for good. */
export async function deliverConnectionEvent(input: ConnectionEventInput): Promise<{ delivered: number; refused: number }> {
  return events.publishConnectionEvent(input);
}
