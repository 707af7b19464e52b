// Every workflow the worker registers. Workflow files import only @temporalio/workflow, activity types and
// each other: no Node built-ins, pg, koa or src/db (the lint rule in eslint.config.mjs enforces it).
export { journeyEnrollment } from './journey';
export { deliverCallEvent } from './call-events';
export { deliverJourneyTrigger } from './journey-trigger';
export { outboundCall } from './outbound-call';
export { automationRun } from './automation-run';
export { chatSession } from './chat-session';
export { campaignRun } from './campaigns/campaign';
export { deliverCampaignEvent } from './campaigns/events';
