/** The call event types a subscription can ask for. */
export const CALL_EVENT_TYPES = ['call.started', 'call.completed'] as const;
export type CallEventType = (typeof CALL_EVENT_TYPES)[number];
/** The campaign event types a subscription can ask for (delivered the same way, signed and retried). */
const CAMPAIGN_EVENT_TYPES = ['campaign.started', 'campaign.completed'] as const;
export type CampaignEventType = (typeof CAMPAIGN_EVENT_TYPES)[number];
/** Every event type a subscription can ask for: the call events, connection.broken (src/connections/events.ts) and the campaign events. */
export const SUBSCRIPTION_EVENT_TYPES = [...CALL_EVENT_TYPES, 'connection.broken', ...CAMPAIGN_EVENT_TYPES] as const;
export type SubscriptionEventType = (typeof SUBSCRIPTION_EVENT_TYPES)[number];

/** The event id of one event of one call: the same on every retry, in every subscriber's delivery. */
export const callEventId = (callId: string, type: CallEventType): string => `evt_call_${callId}_${type === 'call.started' ? 'started' : 'completed'}`;

/** The body POSTed to subscribers: the call and its transfer legs as GET /v1/calls/get shows them. */
export function callEventBody(e: { eventId: string; type: CallEventType; createdAt: Date; call: unknown; legs: unknown[] }): string {
  return JSON.stringify({ id: e.eventId, type: e.type, created_at: e.createdAt.toISOString(), data: { call: e.call, legs: e.legs } });
}
