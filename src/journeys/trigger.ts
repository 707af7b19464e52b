// Shared by the journey workflow (which starts a trigger's delivery) and the delivery activity: no Node imports here.

/** What a trigger step run delivers: ids only (the body, with the lead, was saved when the step ran). */
export interface TriggerEventInput {
  workspaceId: string;
  journeyId: string;
  stepId: string;
  eventId: string;
}

/** Delivery attempts per event: 5xx, 408, 429 and network errors are retried with backoff (about 37 minutes), then recorded as failed. */
export const TRIGGER_DELIVERY_ATTEMPTS = 12;

/** The event id of one trigger step run of one enrollment: stable across retries, worker restarts and replays. */
export const triggerEventId = (enrollmentId: string, seq: number) => `trg_${enrollmentId.replace(/-/g, '')}_${seq}`;
