import type { SandboxEntry } from '../../src/sandbox/ledger';
import { vendorSpec } from './vendor-spec';

// INDEX.md: Slack's description is stale and flawed: lenient mode. Google's describes events, not freeBusy.
const checks: Record<string, (e: SandboxEntry) => string[]> = {
  slack: vendorSpec('slack.json', { lenient: true }),
  hubspot: vendorSpec('hubspot.json'),
  google_calendar: vendorSpec('google-calendar.json'),
};

/** What the vendor's own API description finds wrong with a request the sandbox took (freeBusy is not described). */
export function vendorProblems(entry: SandboxEntry): string[] {
  if (entry.path.endsWith('/calendar/v3/freeBusy')) return [];
  const check = entry.integration ? checks[entry.integration] : undefined;
  if (!check) return [`no vendor description for ${entry.path}`];
  return check(entry);
}
