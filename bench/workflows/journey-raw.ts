// The raw baseline of P3 (bench/journeys.ts): a bare workflow of the journey's shape, tag → POST to the fake vendor →
// end, each step one activity. Workflow code: no Node built-ins.
import { proxyActivities } from '@temporalio/workflow';

/** The two steps' activities: a tag on the lead's row, a POST to the fake vendor. */
export interface JourneyRawActivities {
  rawTag(leadId: string): Promise<void>;
  rawPost(url: string, leadId: string): Promise<void>;
}

const act = proxyActivities<JourneyRawActivities>({ startToCloseTimeout: '30 seconds' });

/** Tag, automation, end. */
export async function rawJourney(leadId: string, url: string): Promise<void> {
  await act.rawTag(leadId);
  await act.rawPost(url, leadId);
}
