import { randomBytes, randomInt } from 'node:crypto';
import type { Db, Queryable } from '../db/pool';
import { createAgent, createPhoneGroup } from '../agents/db/agents';
import { createApiKey } from '../workspaces/db/api-keys';
import { createConnection } from '../connections/store';
import { importFlow } from '../chat/db/flows';
import { importJourney } from '../journeys/db/journeys';
import { createUser } from '../workspaces/db/users';
import { lockPhones, phonesOfOtherWorkspaces } from '../workspaces/db/phone-numbers';
import { createWorkspace } from '../workspaces/db/workspaces';
import { findIntegration } from '../integrations/registry';
import { normalizePhone } from '../core/phone';
import { SANDBOX_PREFIXES, SANDBOX_TOKEN } from '../sandbox/vendor';

/** What `switchboard demo --json` prints. Tools outside the project read it: keep it stable. */
export interface DemoOutput {
  workspace_id: string;
  api_key: string;
  superuser_key: string;
  user: { email: string; password: string };
  agent_id: string;
  journey_id: string;
  flow_id: string;
  base_url: string;
  integrations_url: string;
  hooks_url: string;
  wss_url: string;
  /** A page to chat with the demo flow in a browser. */
  chat_demo_url: string;
  /** The demo flow's WebSocket for a new anonymous chat. */
  chat_ws_url: string;
  /** The vendor sandbox the demo's Slack, HubSpot and Google Calendar connections point at (null: VENDOR_SANDBOX_URL=off). */
  vendor_sandbox_url: string | null;
}

/** The workspace's connections to the vendor sandbox: its token, and base_url at the integration's prefix. */
async function connectSandbox(q: Queryable, workspaceId: string, sandboxUrl: string): Promise<void> {
  for (const [key, prefix] of Object.entries(SANDBOX_PREFIXES)) {
    const kind = findIntegration(key)!.auth.kinds[0]!;
    const secrets = { [kind === 'oauth2' ? 'access_token' : 'api_key']: SANDBOX_TOKEN };
    await createConnection(q, {
      workspaceId,
      userId: null,
      integration: key,
      kind,
      secrets,
      settings: { base_url: `${sandboxUrl.replace(/\/+$/, '')}${prefix}` },
    });
  }
}

/** A fictional US number in the 555 exchange, different on every run. */
function demoPhone(): string {
  for (;;) {
    const phone = normalizePhone(`+1415555${String(randomInt(0, 10_000)).padStart(4, '0')}`);
    if (phone) return phone;
  }
}

/** Distinct demo numbers that no other workspace holds (a number belongs to one workspace), locked until the transaction ends. */
async function freeDemoPhones(q: Queryable, workspaceId: string, count: number): Promise<string[]> {
  for (;;) {
    const phones = [...new Set(Array.from({ length: count }, demoPhone))];
    if (phones.length < count) continue;
    await lockPhones(q, phones);
    if (!(await phonesOfOtherWorkspaces(q, workspaceId, phones)).length) return phones;
  }
}

export const demoJourneySteps = [
  { id: 'welcome', kind: 'tag', tag: 'demo_enrolled' },
  { id: 'pause', kind: 'wait', duration: 'PT1M' },
  { id: 'done', kind: 'tag', tag: 'demo_completed' },
  { id: 'end', kind: 'end' },
];

export const demoFlowGraph = {
  nodes: [
    { id: 'start', type: 'start', next: 'greet' },
    { id: 'greet', type: 'message', text: 'Hi! I am Ava from Switchboard.', next: 'ask_email' },
    { id: 'ask_email', type: 'question', text: 'What is your email address?', field: 'email', validate: 'email', next: 'reply' },
    {
      id: 'reply',
      type: 'ai_reply',
      text: 'Thanks! What would you like to know?',
      prompt: 'Answer briefly and offer to book a call.',
      facts: [
        'Switchboard calls your leads with an AI voice agent and follows up by chat.',
        'Pricing starts with a free trial; a call can be booked any weekday.',
      ],
      next: 'more',
    },
    { id: 'more', type: 'decision', branches: [{ when: { keywords: ['bye', 'thanks', 'done'] }, next: 'end' }], otherwise: 'reply' },
    { id: 'end', type: 'end', text: 'Thanks for chatting!' },
  ],
};

/**
 * Creates a complete, separate demo workspace: agent, numbers, journey, chat flow, user, keys, and (with a vendor
 * sandbox) workspace connections to it.
 */
export async function createDemo(
  db: Db,
  urls: Pick<DemoOutput, 'base_url' | 'integrations_url' | 'hooks_url' | 'wss_url' | 'vendor_sandbox_url'>,
): Promise<DemoOutput> {
  const tag = randomBytes(4).toString('hex');
  // The persona's picture is served by the api itself (GET /webchat/avatar.svg), so the demo shows it offline too.
  const avatar = `${urls.hooks_url}/webchat/avatar.svg`;
  return db.tx(async (q) => {
    const ws = await createWorkspace(q, { name: `Demo ${tag}` });
    const group = await createPhoneGroup(q, ws.id, { name: 'Demo numbers', numbers: await freeDemoPhones(q, ws.id, 2) });
    const agent = await createAgent(q, ws.id, {
      name: 'Ava',
      profilePicture: avatar,
      transferNumber: demoPhone(),
      phoneGroupId: group.id,
    });
    const journey = await importJourney(q, ws.id, { name: 'Demo follow-up', steps: demoJourneySteps });
    const flow = await importFlow(q, ws.id, {
      name: 'Demo chat',
      publicChat: true,
      ownerName: 'Ava',
      ownerPicture: avatar,
      graph: demoFlowGraph,
    });
    const password = randomBytes(12).toString('base64url');
    const user = await createUser(q, ws.id, { email: `demo-${tag}@example.com`, password });
    const apiKey = await createApiKey(q, ws.id, { name: 'demo' });
    const superKey = await createApiKey(q, ws.id, { name: 'demo superuser', superuser: true });
    if (urls.vendor_sandbox_url) await connectSandbox(q, ws.id, urls.vendor_sandbox_url);
    return {
      workspace_id: ws.id,
      api_key: apiKey.key,
      superuser_key: superKey.key,
      user: { email: user.email, password },
      agent_id: agent.id,
      journey_id: journey.id,
      flow_id: flow.id,
      ...urls,
      chat_demo_url: `${urls.hooks_url}/webchat/demo/${flow.id}`,
      chat_ws_url: `${urls.wss_url}/webchat/flow/${flow.id}/session/null/r/false`,
    };
  });
}
