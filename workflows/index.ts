// Every workflow the worker registers. Workflow files import only @temporalio/workflow, activity types and
// each other: no Node built-ins, pg, koa or src/db (the lint rule in eslint.config.mjs enforces it).
export { journeyEnrollment } from './journeys/journey';
export { deliverCallEvent } from './calls/call-events';
export { deliverJourneyTrigger } from './journeys/journey-trigger';
export { outboundCall } from './calls/outbound-call';
export { reclaimUnstartedCalls } from './calls/reclaim';
export { automationRun } from './automation/automation-run';
export { chatSession } from './chat/chat-session';
export { leadImport } from './leads/import';
export { deliverConnectionEvent } from './connections/events';
export { refreshExpiringConnections } from './connections/refresh';
export { campaignRun } from './campaigns/campaign';
export { deliverCampaignEvent } from './campaigns/events';
