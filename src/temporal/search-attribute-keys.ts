import { defineSearchAttributeKey, SearchAttributeType, type SearchAttributePair } from '@temporalio/common';

/**
 * Custom search attributes operators filter runs by in the Temporal UI. Ids and outcomes only: never personal data.
 * Kept apart from their registration so workflow code can import them without the gRPC and proto modules.
 */
export const SA = {
  WorkspaceId: defineSearchAttributeKey('WorkspaceId', SearchAttributeType.KEYWORD),
  LeadId: defineSearchAttributeKey('LeadId', SearchAttributeType.KEYWORD),
  JourneyId: defineSearchAttributeKey('JourneyId', SearchAttributeType.KEYWORD),
  FlowId: defineSearchAttributeKey('FlowId', SearchAttributeType.KEYWORD),
  CallId: defineSearchAttributeKey('CallId', SearchAttributeType.KEYWORD),
  CampaignId: defineSearchAttributeKey('CampaignId', SearchAttributeType.KEYWORD),
  AgentId: defineSearchAttributeKey('AgentId', SearchAttributeType.KEYWORD),
  AutomationType: defineSearchAttributeKey('AutomationType', SearchAttributeType.KEYWORD),
  Outcome: defineSearchAttributeKey('Outcome', SearchAttributeType.KEYWORD),
};

/** The ids a run's start can carry (Outcome is upserted by the run itself when it ends). */
interface RunIds {
  workspaceId?: string;
  leadId?: string;
  journeyId?: string;
  flowId?: string;
  callId?: string;
  campaignId?: string;
  agentId?: string;
  automationType?: string;
}

const KEY_OF: Record<keyof RunIds, (typeof SA)[keyof typeof SA]> = {
  workspaceId: SA.WorkspaceId,
  leadId: SA.LeadId,
  journeyId: SA.JourneyId,
  flowId: SA.FlowId,
  callId: SA.CallId,
  campaignId: SA.CampaignId,
  agentId: SA.AgentId,
  automationType: SA.AutomationType,
};

/** The pairs of the ids given, in SA's order; an absent or empty id is left out. */
function pairs(ids: RunIds): SearchAttributePair[] {
  return (Object.keys(KEY_OF) as (keyof RunIds)[]).filter((k) => ids[k]).map((k) => ({ key: KEY_OF[k], value: ids[k]! }) as SearchAttributePair);
}

/**
 * The start attributes of every workflow type the worker registers, the one place start sites (api, workflows
 * starting children) take them from, so "everything that happened to this lead" is one query in the Temporal UI.
 * Each type names the ids that apply to it; optional ones are set where the starter knows them.
 */
export const runSearchAttributes = {
  journeyEnrollment: (r: { workspaceId: string; leadId: string; journeyId: string }) => pairs(r),
  /** JourneyId when a journey's call step started it, CampaignId when a campaign did. */
  outboundCall: (r: { workspaceId: string; callId: string; agentId: string; leadId?: string; journeyId?: string; campaignId?: string }) => pairs(r),
  /** LeadId and JourneyId when a journey's step started it, FlowId (and LeadId when bound) when a chat flow's node did. */
  automationRun: (r: { workspaceId: string; automationType: string; leadId?: string; journeyId?: string; flowId?: string }) => pairs(r),
  chatSession: (r: { workspaceId: string; flowId: string; leadId?: string }) => pairs(r),
  leadImport: (r: { workspaceId: string }) => pairs(r),
  campaignRun: (r: { workspaceId: string; campaignId: string; agentId: string }) => pairs(r),
  /** The call's own ids, as far as the call knows them. */
  deliverCallEvent: (r: { workspaceId: string; callId: string; agentId?: string; leadId?: string; journeyId?: string; campaignId?: string }) => pairs(r),
  deliverJourneyTrigger: (r: { workspaceId: string; journeyId: string; leadId: string }) => pairs(r),
  deliverConnectionEvent: (r: { workspaceId: string }) => pairs(r),
  deliverCampaignEvent: (r: { workspaceId: string; campaignId: string; agentId: string }) => pairs(r),
  /** Workspace-less: the schedule's runs renew every workspace's tokens, so none of ours apply (Temporal adds TemporalScheduledById). */
  refreshExpiringConnections: (): SearchAttributePair[] => [],
  /** Workspace-less too: the schedule's runs reclaim every workspace's unstarted calls. */
  reclaimUnstartedCalls: (): SearchAttributePair[] => [],
};
