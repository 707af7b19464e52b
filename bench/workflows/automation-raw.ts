// The baseline of bench/automation.ts: a bare workflow running one ordinary activity that makes the same vendor call.
import { proxyActivities } from '@temporalio/workflow';

/** The one activity: the adapter call itself. */
export interface AutomationRawActivities {
  vendorCall(url: string): Promise<unknown>;
}

const { vendorCall } = proxyActivities<AutomationRawActivities>({ startToCloseTimeout: '30 seconds' });

/** One activity doing the adapter call. */
export async function rawAutomationCall(url: string): Promise<unknown> {
  return vendorCall(url);
}
