import { randomInt } from 'node:crypto';
import { createAgent, createPhoneGroup } from '../../src/agents/db/agents';
import { normalizePhone } from '../../src/core/phone';
import { callWorkflowId } from '../../src/temporal/ids';
import type { CallResult } from '../../workflows/calls/outbound-call-types';
import type { TestApp } from './stack';

// Every number handed out in this test file: a test file's simulator ledger spans all its tests, which count a number's
// dials, so two draws of the same number (800 exchanges per ending) made a do-not-call lead look dialled.
const issued = new Set<string>();

/** A valid US destination ending in the given four digits (the simulator's outcome rule), never the same one twice. */
export function phoneEnding(last4: string): string {
  for (let tries = 0; ; tries++) {
    if (tries === 100_000) throw new Error(`phoneEnding: no unused number ending in ${last4} is left in this test file`);
    const phone = `1212${randomInt(2, 10)}${String(randomInt(0, 100)).padStart(2, '0')}${last4}`;
    if (issued.has(phone) || !normalizePhone(phone, 'US')) continue;
    issued.add(phone);
    return phone;
  }
}

/**
 * A time zone where it is now between 10:00 and 17:59, so calls under the default window (08:00–21:00 local) are
 * placed whatever the hour the tests run at.
 */
export function zoneInDaytime(now = new Date()): string {
  const hour = (zone: string) => Number(new Intl.DateTimeFormat('en-US', { hour: 'numeric', hourCycle: 'h23', timeZone: zone }).format(now));
  const zone = Intl.supportedValuesOf('timeZone').find((z) => hour(z) >= 10 && hour(z) < 18);
  if (!zone) throw new Error('no time zone is in daytime now');
  return zone;
}

/** A workspace with an agent whose phone group has a 714 and a 212 number, and a transfer number. */
export async function callingWorkspace(app: TestApp) {
  const ws = await app.newWorkspace();
  const timezone = zoneInDaytime();
  await app.db.query('UPDATE workspaces SET timezone = $2 WHERE id = $1', [ws.workspaceId, timezone]);
  const numbers = ['17145559001', '12125559002'];
  const group = await createPhoneGroup(app.db, ws.workspaceId, { name: 'outbound', numbers });
  const agent = await createAgent(app.db, ws.workspaceId, { name: 'Ava', transferNumber: '18005550100', phoneGroupId: group.id });
  return { ...ws, agentId: agent.id, numbers, timezone };
}

/** The outcome outboundCall returned for a call. */
export const callResult = (app: TestApp, callId: string): Promise<CallResult> => app.temporal.client.workflow.getHandle(callWorkflowId(callId)).result();
