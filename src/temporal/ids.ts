/** Workflow ids: built here only. They double as idempotency keys and carry no personal data. */
export const enrollmentWorkflowId = (journeyId: string, leadId: string) => `enrollment:${journeyId}:${leadId}`;
export const callWorkflowId = (callId: string) => `call:${callId}`;
export const automationWorkflowId = (requestId: string) => `automation:${requestId}`;
export const chatWorkflowId = (sessionId: string) => `chat:${sessionId}`;
export const callEventWorkflowId = (eventId: string) => `call-event:${eventId}`;
export const journeyTriggerWorkflowId = (eventId: string) => `journey-trigger:${eventId}`;
export const leadImportWorkflowId = (importId: string) => `lead-import:${importId}`;
export const campaignWorkflowId = (campaignId: string) => `campaign:${campaignId}`;
/** A campaign event's delivery run. */
export const campaignEventWorkflowId = (eventId: string) => `campaign-event:${eventId}`;
/** A journey preview's run (POST /v1/journeys/{id}/preview). */
export const journeyPreviewWorkflowId = (previewId: string) => `journey-preview:${previewId}`;
