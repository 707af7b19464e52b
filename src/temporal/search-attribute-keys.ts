import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

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
