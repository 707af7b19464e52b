import { campaignRoutes } from '../../campaigns/http/routes';
import type { Route } from '../route';
import { createCallSubscriptionRoute, deleteCallSubscriptionRoute, listCallSubscriptionsRoute } from './call-events';
import { cancelCallRoute, getCallRoute, startCallRoute } from './calls';
import { listCallsRoute } from './calls-list';
import { login } from './auth-login';
import { createAgentRoute, getAgentRoute, listAgentsRoute, updateAgentRoute } from './agents';
import { defineCustomFields, getCustomFields } from './custom-fields';
import { getLeadEnrollments, sendToWorkflow, updateAndSendToWorkflow } from './enrollments';
import { importJourneyRoute } from './journey-import';
import { getJourneyRoute, listJourneysRoute } from './journey-list';
import { getWebhookSecret, rotateWebhookSecretRoute } from './journey-webhooks';
import { listLeads } from './lead-list';
import { addLeadTag, removeLeadTag } from './lead-tags';
import { createLead, getLead, updateLeadRoute } from './leads';
import { createHookRoute, deleteHookRoute, listHooksRoute } from './hooks';
import { nocodeRoutes } from './nocode';
import { addPhoneNumberRoute, assignPhoneNumberRoute, listPhoneNumbersRoute } from './phone-numbers';
import { unenrollLead } from './unenroll';
import { getMe } from './workspace';

/** Every documented route of the api, in the order the OpenAPI document lists them. */
export const routes: Route<any, any>[] = [getMe, getLead, listLeads, createLead, updateLeadRoute, addLeadTag, removeLeadTag, getCustomFields, defineCustomFields, sendToWorkflow, updateAndSendToWorkflow, getLeadEnrollments, unenrollLead, getWebhookSecret, rotateWebhookSecretRoute, listJourneysRoute, getJourneyRoute, importJourneyRoute, startCallRoute, getCallRoute, listCallsRoute, cancelCallRoute, createCallSubscriptionRoute, listCallSubscriptionsRoute, deleteCallSubscriptionRoute, listAgentsRoute, getAgentRoute, createAgentRoute, updateAgentRoute, listPhoneNumbersRoute, addPhoneNumberRoute, assignPhoneNumberRoute, createHookRoute, listHooksRoute, deleteHookRoute, ...campaignRoutes, login, ...nocodeRoutes];
