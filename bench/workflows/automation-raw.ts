// The baselines of bench/automation.ts: a bare workflow running one activity (ordinary or local) that makes the same
// vendor call.
import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';

/** The one activity: the adapter call itself. */
export interface AutomationRawActivities {
  vendorCall(url: string): Promise<unknown>;
}

const { vendorCall } = proxyActivities<AutomationRawActivities>({ startToCloseTimeout: '30 seconds' });

const local = proxyLocalActivities<AutomationRawActivities>({ startToCloseTimeout: '30 seconds' });

/** One activity doing the adapter call. */
export async function rawAutomationCall(url: string): Promise<unknown> {
  return vendorCall(url);
}

/** One local activity doing the adapter call: the shape of automationRun, which P4 divides by. */
export async function rawLocalAutomationCall(url: string): Promise<unknown> {
  return local.vendorCall(url);
}
