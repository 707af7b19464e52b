/** Workflow ids: built here only. They double as idempotency keys and carry no personal data. */
export const enrollmentWorkflowId = (journeyId: string, leadId: string) => `enrollment:${journeyId}:${leadId}`;
export const callWorkflowId = (callId: string) => `call:${callId}`;
export const automationWorkflowId = (requestId: string) => `automation:${requestId}`;
export const chatWorkflowId = (sessionId: string) => `chat:${sessionId}`;
export const callEventWorkflowId = (eventId: string) => `call-event:${eventId}`;
export const journeyTriggerWorkflowId = (eventId: string) => `journey-trigger:${eventId}`;
export const leadImportWorkflowId = (importId: string) => `lead-import:${importId}`;
