import { campaignRoutes } from '../../campaigns/http/routes';
import type { Route } from '../../http/route';
import { createCallSubscriptionRoute, deleteCallSubscriptionRoute, listCallSubscriptionsRoute } from '../../calls/http/call-events';
import { callTranscriptRoute, cancelCallRoute, getCallRoute, startCallRoute } from '../../calls/http/calls';
import { listCallsRoute } from '../../calls/http/calls-list';
import { login } from '../../auth/http/login';
import { createAgentRoute, getAgentRoute, listAgentsRoute, updateAgentRoute } from '../../agents/http/agents';
import { defineCustomFields, getCustomFields } from '../../leads/http/custom-fields';
import { getLeadEnrollments, sendToWorkflow, updateAndSendToWorkflow } from '../../journeys/http/enrollments';
import { importJourneyRoute } from '../../journeys/http/journey-import';
import { getJourneyRoute, listJourneysRoute } from '../../journeys/http/journey-list';
import { previewJourneyRoute } from '../../journeys/http/preview';
import { getWebhookSecret, rotateWebhookSecretRoute } from '../../webhooks/http/webhook-secrets';
import { listLeads } from '../../leads/http/lead-list';
import { addLeadTag, removeLeadTag } from '../../leads/http/lead-tags';
import { createLead, getLead, updateLeadRoute } from '../../leads/http/leads';
import { createHookRoute, deleteHookRoute, listHooksRoute } from '../../journeys/http/hooks';
import { nocodeRoutes } from '../../nocode/http/nocode';
import { addPhoneNumberRoute, assignPhoneNumberRoute, listPhoneNumbersRoute } from '../../workspaces/http/phone-numbers';
import { unenrollLead } from '../../journeys/http/unenroll';
import { getMe } from '../../workspaces/http/workspace';
import { chatSessionRoutes } from '../../chat/http/sessions';
import { leadImportRoutes } from '../../leads/import/http/routes';
import { connectionRoutes } from '../../connections/http/routes';

/** Every documented route of the api, in the order the OpenAPI document lists them. */
export const routes: Route<any, any>[] = [
  getMe,
  getLead,
  listLeads,
  createLead,
  updateLeadRoute,
  addLeadTag,
  removeLeadTag,
  getCustomFields,
  defineCustomFields,
  ...leadImportRoutes,
  sendToWorkflow,
  updateAndSendToWorkflow,
  getLeadEnrollments,
  unenrollLead,
  getWebhookSecret,
  rotateWebhookSecretRoute,
  listJourneysRoute,
  getJourneyRoute,
  previewJourneyRoute,
  importJourneyRoute,
  startCallRoute,
  getCallRoute,
  callTranscriptRoute,
  listCallsRoute,
  cancelCallRoute,
  createCallSubscriptionRoute,
  listCallSubscriptionsRoute,
  deleteCallSubscriptionRoute,
  listAgentsRoute,
  getAgentRoute,
  createAgentRoute,
  updateAgentRoute,
  listPhoneNumbersRoute,
  addPhoneNumberRoute,
  assignPhoneNumberRoute,
  createHookRoute,
  listHooksRoute,
  deleteHookRoute,
  ...campaignRoutes,
  login,
  ...chatSessionRoutes,
  ...nocodeRoutes,
  ...connectionRoutes,
];
