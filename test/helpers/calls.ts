import { randomInt } from 'node:crypto';
import { createAgent, createPhoneGroup } from '../../src/db/repos/agents';
import { normalizePhone } from '../../src/phone';
import { callWorkflowId } from '../../src/temporal/ids';
import type { CallResult } from '../../workflows/outbound-call-types';
import type { TestApp } from './stack';

/** A valid US destination ending in the given four digits (the simulator's outcome rule), different each time. */
export function phoneEnding(last4: string): string {
  for (;;) {
    const phone = `1212${randomInt(2, 10)}${String(randomInt(0, 100)).padStart(2, '0')}${last4}`;
    if (normalizePhone(phone, 'US')) return phone;
  }
}

/** A workspace with an agent whose phone group has a 714 and a 212 number, and a transfer number. */
export async function callingWorkspace(app: TestApp) {
  const ws = await app.newWorkspace();
  const numbers = ['17145559001', '12125559002'];
  const group = await createPhoneGroup(app.db, ws.workspaceId, { name: 'outbound', numbers });
  const agent = await createAgent(app.db, ws.workspaceId, { name: 'Ava', transferNumber: '18005550100', phoneGroupId: group.id });
  return { ...ws, agentId: agent.id, numbers };
}

/** The outcome outboundCall returned for a call. */
export const callResult = (app: TestApp, callId: string): Promise<CallResult> =>
  app.temporal.client.workflow.getHandle(callWorkflowId(callId)).result();
