import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { randomBytes, randomUUID } from 'node:crypto';
import { createJourneyTriggerActivities, TRIGGER_UNDELIVERED } from '../../activities/journeys/journey-triggers';
import { createAgent } from '../../src/agents/db/agents';
import { hookDeliveriesOf } from '../../src/journeys/db/journey-hooks';
import { createUser } from '../../src/workspaces/db/users';
import { TRIGGER_DELIVERY_ATTEMPTS, triggerEventId } from '../../src/journeys/trigger';
import { createLogger } from '../../src/telemetry/log';
import { journeyTriggerWorkflowId } from '../../src/temporal/ids';
import type { JourneyState } from '../../workflows/journeys/journey-messages';
import { finished, importSteps, newPhone } from '../helpers/journeys';
import { BLOCKED, REFUSED_FORMS } from '../helpers/ssrf-corpus';
import { startTestApp, type TestApp } from '../helpers/stack';
import { eventually, verifySignature, WebhookReceiver } from '../helpers/webhook-receiver';

jest.setTimeout(180_000);

let app: TestApp;
/** The api with the default outbound guard (no SSRF_ALLOWLIST): loopback and private addresses are refused. */
let strict: TestApp;
const receiver = new WebhookReceiver();
let hooks: string;
beforeAll(async () => {
  app = await startTestApp({ workers: true, config: { SSRF_ALLOWLIST: '127.0.0.1/8' } });
  strict = await startTestApp();
  hooks = await receiver.start();
});
afterAll(async () => {
  await receiver.close();
  await Promise.all([app.close(), strict.close()]);
});

const JOURNEY = [
  { id: 'hello', kind: 'tag', tag: 'hello' },
  { id: 'handoff', kind: 'trigger', name: 'Hand off to CRM' },
  { id: 'quiet', kind: 'trigger' },
  { id: 'bye', kind: 'tag', tag: 'bye' },
];

async function tenant(on: TestApp = app, steps: unknown[] = JOURNEY) {
  const ws = await on.newWorkspace({ superuser: true });
  const email = `u${randomBytes(5).toString('hex')}@example.com`;
  const password = `pw-${randomBytes(8).toString('hex')}`;
  await createUser(on.db, ws.workspaceId, { email, password });
  const journey = await importSteps(on, ws.workspaceId, steps);
  const enroll = async () => {
    const res = await on.request('POST', '/v1/lead/sendtoworkflow', {
      key: ws.apiKey,
      body: { workflow_id: journey.id, record: { phone: newPhone(), first_name: 'Ada' } },
    });
    expect(res.status).toBe(200);
    return res.body.lead_id as string;
  };
  return { ...ws, email, password, journeyId: journey.id, enroll };
}

const options = (kind: string, body: unknown, headers: Record<string, string> = {}, on: TestApp = app) =>
  on.request('POST', `/api/make-com/automation/options/${kind}`, { body, headers });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const subscribe = (body: unknown, headers: Record<string, string>, on: TestApp = app) =>
  on.request('POST', '/api/make-com/automation/subscribe', { body, headers });
const unsubscribe = (body: unknown, headers: Record<string, string>) => app.request('DELETE', '/api/make-com/automation/unsubscribe', { body, headers });
/** An activity context at the given attempt; the activity's own failure logs stay quiet. */
const activityEnv = (attempt: number) => new MockActivityEnvironment({ attempt }, { logger: new DefaultLogger('ERROR') });
const history = (s: JourneyState) => s.history.map((h) => `${h.step_id}:${h.outcome}`);

describe('option lists', () => {
  it('fills every dropdown with body credentials, an API key or a user JWT alike', async () => {
    const t = await tenant();
    const agent = await createAgent(app.db, t.workspaceId, { name: 'Sales Sam' });
    const jwt = (await app.request('POST', '/api/auth/login', { body: { email: t.email, password: t.password } })).body.token as string;
    const name = (await app.db.one<{ name: string }>('SELECT name FROM workspaces WHERE id = $1', [t.workspaceId]))!.name;
    for (const auth of [
      { body: { user: t.email, password: t.password }, headers: {} },
      { body: {}, headers: bearer(t.apiKey) },
      { body: {}, headers: bearer(jwt) },
    ]) {
      expect((await options('workspaces', auth.body, auth.headers)).body).toEqual({ items: [{ label: name, value: t.workspaceId }] });
      const journeys = await options('journeys', { ...auth.body, workspace_id: t.workspaceId }, auth.headers);
      expect(journeys.body).toEqual({ items: [{ label: 'test journey', value: t.journeyId }] });
      const nodes = await options('nodes', { ...auth.body, journey_id: t.journeyId }, auth.headers);
      expect(nodes.body).toEqual({
        items: [
          { label: 'Hand off to CRM', value: 'handoff' },
          { label: 'quiet', value: 'quiet' },
        ],
      });
      expect((await options('agents', auth.body, auth.headers)).body).toEqual({ items: [{ label: 'Sales Sam', value: agent.id }] });
    }
  });

  it('answers 401 in the error shape for bad or missing credentials, and 404 for another workspace', async () => {
    const t = await tenant();
    const other = await tenant();
    const unauthorized = { status: 'failed', message: expect.stringMatching(/^Unauthorized/) };
    for (const [body, headers] of [
      [{}, {}],
      [{ user: t.email, password: 'wrong' }, {}],
      [{ user: 'nobody@example.com', password: t.password }, {}],
      [{}, bearer('sk_not_a_key')],
      [{}, bearer('a.b.c')],
      [{}, { authorization: 'Basic abc' }],
      // A bad token is refused even with good body credentials.
      [{ user: t.email, password: t.password }, bearer('sk_not_a_key')],
    ] as [Record<string, unknown>, Record<string, string>][]) {
      const res = await options('workspaces', body, headers);
      expect([res.status, res.body]).toEqual([401, unauthorized]);
    }
    expect((await options('nodes', { journey_id: other.journeyId }, bearer(t.apiKey))).status).toBe(404);
    expect((await options('journeys', { workspace_id: other.workspaceId }, bearer(t.apiKey))).body).toEqual({
      status: 'failed',
      message: 'Workspace not found',
    });
    expect((await options('nodes', { journey_id: 'x' }, bearer(t.apiKey))).status).toBe(400);
    expect((await options('nodes', { journey_id: t.journeyId, extra: 1 }, bearer(t.apiKey))).status).toBe(400);
  });

  it('limits body credentials like login (429 with Retry-After)', async () => {
    const limited = await startTestApp({ config: { LOGIN_RATE_LIMIT_PER_EMAIL: '2' } });
    try {
      const t = await tenant(limited);
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await options('workspaces', { user: t.email, password: 'wrong' }, {}, limited)).status);
      const last = await options('workspaces', { user: t.email, password: t.password }, {}, limited);
      expect(statuses).toEqual([401, 401, 429]);
      expect(last.status).toBe(429);
      expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
      // A Bearer key is not a login attempt.
      expect((await options('workspaces', {}, bearer(t.apiKey), limited)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('REST hooks', () => {
  it('gives the same hook_id for the same step and URL, on both hosts, and lists with a cursor', async () => {
    const t = await tenant();
    const body = { journey_id: t.journeyId, automation_node_id: 'handoff', webhook_url: `${hooks}/same`, platform: 'n8n' };
    const first = await subscribe(body, bearer(t.apiKey));
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      status: 'success',
      hook_id: expect.any(String),
      hook: { journey_id: t.journeyId, automation_node_id: 'handoff', webhook_url: `${hooks}/same`, platform: 'n8n' },
    });
    const [again, byCredentials, byV1] = await Promise.all([
      subscribe(body, bearer(t.apiKey)),
      subscribe({ ...body, user: t.email, password: t.password }, {}),
      app.request('POST', '/v1/hooks', { key: t.apiKey, body }),
    ]);
    expect([again.body.hook_id, byCredentials.body.hook_id, byV1.body.hook_id]).toEqual([first.body.hook_id, first.body.hook_id, first.body.hook_id]);
    const other = await app.request('POST', '/v1/hooks', { key: t.apiKey, body: { ...body, automation_node_id: 'quiet' } });
    const third = await app.request('POST', '/v1/hooks', { key: t.apiKey, body: { ...body, webhook_url: `${hooks}/third` } });
    expect(new Set([first.body.hook_id, other.body.hook_id, third.body.hook_id]).size).toBe(3);

    const page1 = await app.request('GET', '/v1/hooks?limit=2', { key: t.apiKey });
    const page2 = await app.request('GET', `/v1/hooks?limit=2&cursor=${page1.body.next_cursor}`, { key: t.apiKey });
    expect(page2.body.next_cursor).toBeNull();
    expect([...page1.body.hooks, ...page2.body.hooks].map((h: { id: string }) => h.id)).toEqual([third.body.hook_id, other.body.hook_id, first.body.hook_id]);
  });

  it('refuses an unknown journey, an unknown or non-trigger step and bad bodies, saving nothing', async () => {
    const t = await tenant();
    const other = await tenant();
    const base = { journey_id: t.journeyId, automation_node_id: 'handoff', webhook_url: `${hooks}/x` };
    const cases: [unknown, number, RegExp][] = [
      [{ ...base, journey_id: other.journeyId }, 404, /^Workflow not found$/],
      [{ ...base, journey_id: '6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f' }, 404, /^Workflow not found$/],
      [{ ...base, automation_node_id: 'nope' }, 404, /Node not found/],
      [{ ...base, automation_node_id: 'hello' }, 400, /automation_node_id: step hello is a tag step/],
      [{ ...base, webhook_url: 'ftp://example.com/x' }, 400, /webhook_url/],
      [{ ...base, webhook_url: undefined }, 400, /webhook_url: required/],
      [{ ...base, platform: 'n 8 n' }, 400, /platform/],
      [{ ...base, surprise: true }, 400, /surprise/],
    ];
    for (const [body, status, message] of cases) {
      for (const res of [await subscribe(body, bearer(t.apiKey)), await app.request('POST', '/v1/hooks', { key: t.apiKey, body })]) {
        expect([res.status, res.body.status]).toEqual([status, 'failed']);
        expect(res.body.message).toMatch(message);
      }
    }
    expect((await app.request('GET', '/v1/hooks', { key: t.apiKey })).body.hooks).toEqual([]);
  });

  it('keeps hooks to their workspace: another key or user cannot list or delete them', async () => {
    const t = await tenant();
    const other = await tenant();
    const made = await subscribe({ journey_id: t.journeyId, automation_node_id: 'handoff', webhook_url: `${hooks}/mine` }, bearer(t.apiKey));
    expect((await app.request('GET', '/v1/hooks', { key: other.apiKey })).body.hooks).toEqual([]);
    expect((await app.request('DELETE', `/v1/hooks?id=${made.body.hook_id}`, { key: other.apiKey })).status).toBe(404);
    expect((await unsubscribe({ hook_id: made.body.hook_id }, bearer(other.apiKey))).status).toBe(404);
    expect((await unsubscribe({ webhook_url: `${hooks}/mine`, user: other.email, password: other.password }, {})).status).toBe(404);
    expect((await app.request('GET', '/v1/hooks', { key: t.apiKey })).body.hooks.map((h: { id: string }) => h.id)).toEqual([made.body.hook_id]);
    // Its own workspace can: by url on the integrations host, by id under /v1.
    expect((await unsubscribe({ webhook_url: `${hooks}/mine` }, bearer(t.apiKey))).body).toEqual({
      status: 'success',
      hook_ids: [made.body.hook_id],
      message: 'Hook deleted',
    });
    expect((await app.request('DELETE', `/v1/hooks?id=${made.body.hook_id}`, { key: t.apiKey })).status).toBe(404);
    expect((await unsubscribe({ webhook_url: `${hooks}/mine`, hook_id: made.body.hook_id }, bearer(t.apiKey))).status).toBe(400);
    expect((await unsubscribe({}, bearer(t.apiKey))).status).toBe(400);
  });

  it.each([...BLOCKED, ...REFUSED_FORMS.filter((u) => /^https?:/.test(u))])('refuses webhook_url %s without SSRF_ALLOWLIST', async (url) => {
    const t = await strictTenant();
    const res = await subscribe({ journey_id: t.journeyId, automation_node_id: 'handoff', webhook_url: url }, bearer(t.apiKey), strict);
    expect([res.status, res.body.status]).toEqual([400, 'failed']);
    expect(res.body.message).toMatch(/^webhook_url/);
    expect((await strict.request('GET', '/v1/hooks', { key: t.apiKey })).body.hooks).toEqual([]);
  });
});

let strictOne: Awaited<ReturnType<typeof tenant>> | undefined;
const strictTenant = async () => (strictOne ??= await tenant(strict));

describe('the trigger step', () => {
  it('POSTs the signed step data once to each subscriber and goes on; a 500 is retried, a 410 is final and recorded', async () => {
    const t = await tenant();
    receiver.secret = (await app.request('GET', '/v1/journeys/webhook-secret', { key: t.superuserKey })).body.webhook_secret;
    receiver.script('/flaky', [500, 200]);
    receiver.script('/gone', [410]);
    const ids: Record<string, string> = {};
    for (const path of ['/ok', '/flaky', '/gone']) {
      ids[path] = (
        await subscribe({ journey_id: t.journeyId, automation_node_id: 'handoff', webhook_url: `${hooks}${path}`, platform: 'n8n' }, bearer(t.apiKey))
      ).body.hook_id;
    }
    const lead = await t.enroll();
    const end = await finished(app, t.journeyId, lead);
    // The journey does not wait for its subscribers (the 410 and the retried 500 included).
    expect(end.status).toBe('completed');
    expect(history(end)).toEqual(['hello:done', 'handoff:done', 'quiet:done', 'bye:done']);
    const eventId = /^event (\S+)$/.exec(end.history[1]!.detail ?? '')![1]!;
    // A trigger nobody subscribed to starts no delivery.
    expect(end.history[2]!.detail).toMatch(/: no subscribers$/);

    await eventually(async () => (await hookDeliveriesOf(app.db, t.workspaceId, eventId)).length === 3, 60_000, 'every hook to settle');
    const settled = await hookDeliveriesOf(app.db, t.workspaceId, eventId);
    expect(Object.fromEntries(settled.map((d) => [d.hook_id, [d.outcome, d.http_status]]))).toEqual({
      [ids['/ok']!]: ['delivered', 200],
      [ids['/flaky']!]: ['delivered', 200],
      [ids['/gone']!]: ['rejected', 410],
    });
    const listed = (await app.request('GET', '/v1/hooks', { key: t.apiKey })).body.hooks as { id: string; last_delivery: { outcome: string } | null }[];
    expect(Object.fromEntries(listed.map((h) => [h.id, h.last_delivery?.outcome]))).toEqual({
      [ids['/ok']!]: 'delivered',
      [ids['/flaky']!]: 'delivered',
      [ids['/gone']!]: 'rejected',
    });
    expect(receiver.on('/ok')).toHaveLength(1);
    expect(receiver.on('/flaky').map((d) => d.status)).toEqual([500, 200]);
    expect(receiver.on('/gone')).toHaveLength(1);
    const delivery = receiver.on('/ok')[0]!;
    expect(verifySignature(receiver.secret, delivery.signature, delivery.body)).toBe(true);
    expect(delivery.eventId).toBe(eventId);
    expect(receiver.on('/flaky').every((d) => d.eventId === eventId && d.body === delivery.body)).toBe(true);
    expect(JSON.parse(delivery.body)).toEqual({
      id: eventId,
      event_id: eventId,
      type: 'journey.trigger',
      created_at: expect.stringMatching(/Z$/),
      account_id: t.workspaceId,
      accountId: t.workspaceId,
      journey_id: t.journeyId,
      step_id: 'handoff',
      step_name: 'Hand off to CRM',
      enrollment_id: end.enrollment_id,
      lead_id: lead,
      // The lead as it was when the journey reached the step (the later tag is not in it).
      lead: expect.objectContaining({ lead_id: lead, first_name: 'Ada', tags: ['hello'] }),
      call: null,
    });
    // The delivery workflow is keyed by the event: starting it again would be the same run. (Its rows settle just
    // before the run's last workflow task completes, so wait for the run's end before describing it.)
    const handle = app.temporal.client.workflow.getHandle(journeyTriggerWorkflowId(eventId));
    await handle.result();
    expect((await handle.describe()).status.name).toBe('COMPLETED');
  });

  it('never holds the journey for a subscriber that keeps failing; the last attempt records it as failed', async () => {
    const t = await tenant();
    receiver.script('/down', [503]);
    const hook = await subscribe({ journey_id: t.journeyId, automation_node_id: 'handoff', webhook_url: `${hooks}/down` }, bearer(t.apiKey));
    const lead = await t.enroll();
    const end = await finished(app, t.journeyId, lead);
    expect(history(end)).toEqual(['hello:done', 'handoff:done', 'quiet:done', 'bye:done']);
    const eventId = /^event (\S+)$/.exec(end.history[1]!.detail ?? '')![1]!;
    const delivery = app.temporal.client.workflow.getHandle(journeyTriggerWorkflowId(eventId));
    await eventually(async () => receiver.on('/down').length >= 1, 30_000, 'the first attempt');
    expect((await delivery.describe()).status.name).toBe('RUNNING'); // still retrying, the journey long done
    await delivery.terminate('test: the attempts are played below without waiting for the backoff');

    // The same event's attempts, played as the retry policy would (attempt numbers given, no backoff waited).
    const activities = createJourneyTriggerActivities({ db: app.db, logger: createLogger('silent', 'test'), ssrfAllowlist: ['127.0.0.1/8'] });
    const input = { workspaceId: t.workspaceId, journeyId: t.journeyId, stepId: 'handoff', eventId };
    const before = receiver.on('/down').length;
    for (let attempt = 2; attempt < TRIGGER_DELIVERY_ATTEMPTS; attempt++) {
      await expect(activityEnv(attempt).run(activities.publishJourneyTrigger, input)).rejects.toMatchObject({ type: TRIGGER_UNDELIVERED });
    }
    expect(await hookDeliveriesOf(app.db, t.workspaceId, eventId)).toEqual([]);
    const last = await activityEnv(TRIGGER_DELIVERY_ATTEMPTS).run(activities.publishJourneyTrigger, input);
    expect(last).toEqual({ delivered: 0, refused: 0, failed: 1 });
    expect(await hookDeliveriesOf(app.db, t.workspaceId, eventId)).toEqual([{ hook_id: hook.body.hook_id, outcome: 'failed', http_status: 503 }]);
    const [listed] = (await app.request('GET', '/v1/hooks', { key: t.apiKey })).body.hooks;
    expect(listed.last_delivery).toEqual({
      event_id: eventId,
      outcome: 'failed',
      http_status: 503,
      detail: 'HTTP 503',
      settled_at: expect.stringMatching(/Z$/),
    });
    expect(receiver.on('/down').length - before).toBe(TRIGGER_DELIVERY_ATTEMPTS - 1);
    // Settled: a later attempt sends nothing more.
    expect(await activityEnv(1).run(activities.publishJourneyTrigger, input)).toEqual({ delivered: 0, refused: 0, failed: 0 });
    expect(receiver.on('/down').length - before).toBe(TRIGGER_DELIVERY_ATTEMPTS - 1);
    expect(new Set(receiver.on('/down').map((d) => d.eventId))).toEqual(new Set([eventId]));
  });

  it('saves the step data once per event id (a retried step keeps the first body)', async () => {
    const t = await tenant();
    await subscribe({ journey_id: t.journeyId, automation_node_id: 'quiet', webhook_url: `${hooks}/saved` }, bearer(t.apiKey));
    const lead = (await app.request('POST', '/v1/lead/create', { key: t.apiKey, body: { phone: newPhone(), first_name: 'First' } })).body.lead_id as string;
    const activities = createJourneyTriggerActivities({ db: app.db, logger: createLogger('silent', 'test'), ssrfAllowlist: ['127.0.0.1/8'] });
    const enrollmentId = randomUUID();
    const step = {
      enrollmentId,
      workspaceId: t.workspaceId,
      leadId: lead,
      journeyId: t.journeyId,
      stepId: 'quiet',
      seq: 1,
      eventId: triggerEventId(enrollmentId, 1),
    };
    expect(await activityEnv(1).run(activities.journeyTriggerEvent, step)).toEqual({ hooks: 1 });
    await app.request('PATCH', '/v1/lead/update', { key: t.apiKey, body: { lead_id: lead, first_name: 'Second' } });
    expect(await activityEnv(2).run(activities.journeyTriggerEvent, step)).toEqual({ hooks: 1 });
    const input = { workspaceId: t.workspaceId, journeyId: t.journeyId, stepId: 'quiet', eventId: step.eventId };
    expect(await activityEnv(1).run(activities.publishJourneyTrigger, input)).toEqual({ delivered: 1, refused: 0, failed: 0 });
    const [got] = receiver.on('/saved');
    expect(JSON.parse(got!.body)).toMatchObject({ event_id: step.eventId, step_name: 'quiet', lead: { first_name: 'First' } });
  });
});
