import { Connection } from '@temporalio/client';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { createDemo, demoFlowGraph } from '../../src/cli/demo';
import { createDb, type Db } from '../../src/db/pool';
import { importJourney } from '../../src/journeys/db/journeys';
import { findLeadById } from '../../src/leads/db/leads';
import { startCluster, type RunningCluster } from '../../src/devstack/cluster';
import { freePort } from '../../src/devstack/net';
import type { SandboxEntry } from '../../src/sandbox/ledger';
import { phoneEnding, zoneInDaytime } from '../helpers/calls';
import { repoRoot, testEnv } from '../helpers/env';
import { newPhone } from '../helpers/journeys';
import { eventually, WebhookReceiver } from '../helpers/webhook-receiver';
import { chatConversation, RetryingClient, type Answer } from './traffic';

// The first run on a machine builds the Temporal server from the Go module proxy (about 4 minutes on 2 cores).
jest.setTimeout(30 * 60_000);

const say = (line: string) => process.stderr.write(`[cluster test] ${line}\n`);
const dir = path.join(repoRoot, '.data', 'cluster-test');
const receiver = new WebhookReceiver();
let cluster: RunningCluster;
let db: Db;

beforeAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  const hooks = await receiver.start();
  const env: NodeJS.ProcessEnv = {
    // SWITCHBOARD_DATA_DIR stays this process's: the cluster then has its key ring, which seals the demo's connections.
    ...process.env,
    SSRF_ALLOWLIST: '127.0.0.1/8',
    RATE_LIMIT_PER_KEY: '0',
    RATE_LIMIT_PER_ADDRESS: '0',
    WEBCHAT_SESSIONS_PER_ADDRESS: '0',
    LOG_LEVEL: 'info',
  };
  delete env.DATABASE_URL;
  cluster = await startCluster({
    dir,
    postgres: { dataDir: dir, port: await freePort(), database: 'switchboard' },
    ports: {
      temporal: await freePort(),
      apis: [0, 0],
      workers: [
        { queues: 'journeys,calls', health: 0, metrics: 0 },
        { queues: 'automations,chat', health: 0, metrics: 0 },
      ],
      simulator: 0,
      sandbox: 0,
    },
    namespace: 'default',
    env,
    bundlePath: testEnv('bundlePath'),
    say,
  });
  db = createDb(cluster.databaseUrl, { max: 4 });
  hooksUrl = hooks;
});

afterAll(async () => {
  await db?.close().catch(() => undefined);
  await cluster?.stop();
  await receiver.close();
});

let hooksUrl = '';

describe('the cluster topology', () => {
  it('admits to the Temporal frontend only clients with a certificate of its CA', async () => {
    const ca = readFileSync(cluster.pki.caCert);
    const attempt = (tls: object | undefined) =>
      Connection.connect({ address: cluster.temporalAddress, tls, connectTimeout: '5s' }).then(
        async (c) => {
          try {
            await c.withDeadline(Date.now() + 5000, () => c.workflowService.getSystemInfo({}));
            return 'reached';
          } finally {
            await c.close();
          }
        },
        (err: Error) => `refused: ${err.message}`,
      );
    const withCert = {
      serverRootCACertificate: ca,
      serverNameOverride: 'localhost',
      clientCertPair: { crt: readFileSync(cluster.pki.clientCert), key: readFileSync(cluster.pki.clientKey) },
    };
    expect(await attempt(withCert)).toBe('reached');
    expect(await attempt({ serverRootCACertificate: ca, serverNameOverride: 'localhost' })).toMatch(/^refused/);
    expect(await attempt(undefined)).toMatch(/^refused/);
  });

  it('loses nothing and does nothing twice while a worker and an api are killed and Temporal and PostgreSQL restart', async () => {
    const demo = await createDemo(db, {
      base_url: `${cluster.apiUrls[0]}/v1`,
      integrations_url: cluster.apiUrls[0]!,
      hooks_url: cluster.apiUrls[0]!,
      wss_url: cluster.apiUrls[0]!.replace(/^http/, 'ws'),
      vendor_sandbox_url: cluster.sandboxUrl!,
    });
    await db.query('UPDATE workspaces SET timezone = $2 WHERE id = $1', [demo.workspace_id, zoneInDaytime()]);
    const journey = await importJourney(db, demo.workspace_id, {
      name: 'fault test',
      steps: [
        { id: 'start', kind: 'tag', tag: 'started' },
        { id: 'first_hook', kind: 'webhook', url: `${hooksUrl}/faults/first` },
        { id: 'pause', kind: 'wait', duration: 'PT4S' },
        { id: 'second_hook', kind: 'webhook', url: `${hooksUrl}/faults/second` },
        { id: 'done', kind: 'tag', tag: 'done' },
        { id: 'end', kind: 'end' },
      ],
    });
    const client = new RetryingClient(cluster.apiUrls);
    receiver.secret = (
      await (await fetch(`${cluster.apiUrls[1]}/v1/journeys/webhook-secret`, { headers: { authorization: `Bearer ${demo.superuser_key}` } })).json()
    ).webhook_secret;
    const bearer = { authorization: `Bearer ${demo.api_key}` };
    const rules = [
      { last4: '0001', legs: 0, transferred: false },
      { last4: '0005', legs: 1, transferred: true },
      { last4: '0006', legs: 2, transferred: true },
    ];
    const callWaves: number[] = [];
    const sent = {
      enrollments: [] as Promise<Answer>[],
      calls: [] as Promise<Answer>[],
      runs: [] as { text: string; answer: Promise<Answer> }[],
      chats: [] as Awaited<ReturnType<typeof chatConversation>>[],
    };

    /** One wave of traffic through both apis: four enrollments, three calls (0, 1 and 2 transfer legs), two automation runs. */
    const wave = (w: number) => {
      const enrollments = Array.from({ length: 4 }, (_, i) =>
        client.post('/v1/lead/sendtoworkflow', { workflow_id: journey.id, record: { phone: newPhone() } }, { key: `enroll-${w}-${i}`, auth: bearer, first: i }),
      );
      const calls = rules.map((r, i) =>
        client.post('/v1/agent', { agent: demo.agent_id, phone: phoneEnding(r.last4) }, { key: `call-${w}-${i}`, auth: bearer, first: i + 1 }),
      );
      const runs = [0, 1].map((i) => {
        const text = `fault test ${w}.${i}`;
        const body = { automationType: 'slack', nodeParams: { action: 'post_message', params: { channel: '#faults', text } } };
        return { text, answer: client.post('/api/automation/execute', body, { key: `run-${w}-${i}`, auth: { 'x-key': demo.superuser_key }, first: i }) };
      });
      sent.enrollments.push(...enrollments);
      sent.calls.push(...calls);
      callWaves.push(...calls.map(() => w));
      sent.runs.push(...runs);
      return { enrollments, calls, runs };
    };
    const ledger = async (): Promise<any[]> => (await (await fetch(`${cluster.simulatorUrl}/ledger`)).json()).calls;
    /** Waits until the wave's calls are all at the provider, none finished: the fault then hits calls in flight. */
    const callsInFlight = async (calls: Promise<Answer>[]) => {
      const ids = (await Promise.all(calls)).map((a) => a.body.call_id as string);
      await eventually(
        async () => {
          const entries = (await ledger()).filter((e) => ids.includes(e.callId));
          return entries.length === ids.length && entries;
        },
        120_000,
        "the wave's calls at the provider",
      );
    };
    const answered = (w: ReturnType<typeof wave>) => Promise.all([...w.enrollments, ...w.calls, ...w.runs.map((r) => r.answer)]);
    const chat = async (api: number) => sent.chats.push(await chatConversation(cluster.apiUrls[api]!, demo.flow_id));

    // 1. SIGKILL the worker of journeys and calls while calls ring, runs wait and webhooks go out.
    const w1 = wave(1);
    await chat(0);
    await callsInFlight(w1.calls);
    await cluster.workers[0]!.kill();
    say('worker 1 killed');
    await cluster.workers[0]!.start();

    // 2. SIGKILL the api that takes the provider's status callbacks while calls ring (their callbacks are lost).
    // Its requests are answered first: a request cut by the kill leaves its Idempotency-Key claimed for 5 minutes.
    const w2 = wave(2);
    await answered(w2);
    await callsInFlight(w2.calls);
    await cluster.apis[0]!.kill();
    say('api 1 killed');
    // Requests while it is down: those sent to it are refused and retried on the other api.
    await answered(wave(6));
    await chat(1);
    await cluster.apis[0]!.start();

    // 3. Restart the Temporal server with runs, calls and automation runs in flight.
    const w3 = wave(3);
    await callsInFlight(w3.calls);
    await cluster.temporal.stop();
    say('Temporal stopped');
    // Requests while it is down: answered 503 (or held until it is back) and retried with their keys.
    wave(7);
    await cluster.temporal.start();
    await chat(0);

    // 4. Restart PostgreSQL (the app's and Temporal's databases).
    const w4 = wave(4);
    await answered(w4);
    await callsInFlight(w4.calls);
    await cluster.postgres().stop();
    // Requests while it is down: answered 503 and retried with their keys.
    wave(8);
    await cluster.restartPostgres();
    say('PostgreSQL restarted');
    await chat(1);

    // 5. A wave after the faults.
    wave(5);
    await chat(0);

    // Every request answered (retried on the other api while one was down).
    const enrolled = await Promise.all(sent.enrollments);
    expect(enrolled.map((a) => a.status)).toEqual(enrolled.map(() => 200));
    const leads = enrolled.map((a) => a.body.lead_id as string);
    const placed = await Promise.all(sent.calls);
    expect(placed.map((a) => a.status)).toEqual(placed.map(() => 200));
    const callIds = placed.map((a) => a.body.call_id as string);
    const runs = await Promise.all(sent.runs.map(async (r) => ({ text: r.text, answer: await r.answer })));
    expect(runs.map((r) => [r.answer.status, r.answer.body?.error])).toEqual(runs.map((r) => [200, r.answer.body?.error]));
    say(`requests retried: ${client.retries} (${client.stale} on a claim left behind)`);
    expect(client.retries).toBeGreaterThan(0); // the faults reached the traffic

    // Journeys: every run completed, each webhook event processed once by the receiver, each tag set once.
    const openRuns = () => db.query(`SELECT id, status, current_step FROM enrollments WHERE lead_id = ANY($1) AND status <> 'completed'`, [leads]);
    await eventually(async () => (await openRuns()).length === 0, 300_000, 'every enrollment completed').catch(async (err: Error) => {
      throw new Error(`${err.message}: ${JSON.stringify(await openRuns())}`);
    });
    const enrollmentCounts = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM enrollments WHERE lead_id = ANY($1) GROUP BY lead_id', [leads]);
    expect(enrollmentCounts).toEqual(leads.map(() => ({ n: 1 })));
    for (const lead of leads) expect((await findLeadById(db, demo.workspace_id, lead))!.tags).toEqual(['started', 'done']);
    const deliveries = [...receiver.on('/faults/first'), ...receiver.on('/faults/second')];
    expect(deliveries.every((d) => d.verified && d.eventId)).toBe(true);
    const events = new Set(deliveries.map((d) => d.eventId));
    expect(events.size).toBe(leads.length * 2);
    const processed = receiver.processed.filter((id) => events.has(id));
    expect(new Set(processed).size).toBe(leads.length * 2);
    expect(processed).toHaveLength(leads.length * 2);
    say(`webhook deliveries: ${deliveries.length} for ${events.size} events`);

    // Calls: each dialled once at the provider, its transfer legs as the rule says, every row ended.
    const terminal = ['completed', 'busy', 'no_answer', 'failed', 'canceled'];
    // A call has ended when its run wrote the outcome (and released its slot in the same transaction); the provider's
    // status reaches the row earlier, before the run's grace for late leg callbacks.
    const openCalls = () =>
      db.query(
        `SELECT id, status, outcome, provider_sid, created_at FROM calls
         WHERE (id = ANY($1) OR parent_id = ANY($1)) AND (status <> ALL($2) OR (parent_id IS NULL AND outcome IS NULL))`,
        [callIds, terminal],
      );
    await eventually(async () => (await openCalls()).length === 0, 300_000, 'every call ended').catch(async (err: Error) => {
      throw new Error(
        `${err.message}: ${JSON.stringify(await openCalls())}; provider: ${JSON.stringify((await ledger()).filter((e) => callIds.includes(e.callId)).map((e) => [e.callId, e.status, e.legs]))}`,
      );
    });
    const providerCalls = await ledger();
    callIds.forEach((id, i) => {
      const rule = rules[i % rules.length]!;
      const entries = providerCalls.filter((e) => e.callId === id);
      expect(entries).toHaveLength(1);
      expect(entries[0].legs).toHaveLength(rule.legs);
    });
    const rows = await db.query<{ id: string; parent_id: string | null; transferred: boolean; status: string }>(
      'SELECT id, parent_id, transferred, status FROM calls WHERE id = ANY($1) OR parent_id = ANY($1)',
      [callIds],
    );
    callIds.forEach((id, i) => {
      const rule = rules[i % rules.length]!;
      // The wave says which fault the call met (6: api 1 down, 7: Temporal down, 8: PostgreSQL down).
      expect({ id, wave: callWaves[i], legRows: rows.filter((r) => r.parent_id === id).length }).toEqual({ id, wave: callWaves[i], legRows: rule.legs });
      expect(rows.find((r) => r.id === id)).toMatchObject({ transferred: rule.transferred, status: 'completed' });
    });
    // Every slot free: the ended calls released theirs; a call admitted while Temporal or PostgreSQL was down and never
    // started is deleted by the api in the background, retried until PostgreSQL answers (0.5 s doubling to 30 s).
    const slotHolders = () =>
      db.query('SELECT id, status, outcome, provider_sid, created_at FROM calls WHERE workspace_id = $1 AND slot_taken_at IS NOT NULL', [demo.workspace_id]);
    await eventually(async () => (await slotHolders()).length === 0, 120_000, 'every slot released').catch(async (err: Error) => {
      throw new Error(`${err.message}: ${JSON.stringify(await slotHolders())}`);
    });
    expect(await db.query('SELECT used FROM call_slot_counts WHERE workspace_id = $1', [demo.workspace_id])).toEqual([{ used: 0 }]);
    say(
      `provider creates repeated (folded by the simulator): ${providerCalls.filter((e) => callIds.includes(e.callId)).reduce((n, e) => n + e.repeatedCreates, 0)}`,
    );

    // Automation runs: one stored run per request, every one ended; Slack got each message at most once, and exactly
    // once for every run that succeeded (a run cut mid-request ends outcome_unknown and is not sent again).
    const stored = await db.query<{ id: string; success: boolean | null; finished_at: Date | null }>(
      'SELECT id, success, finished_at FROM automation_runs WHERE workspace_id = $1',
      [demo.workspace_id],
    );
    expect(stored).toHaveLength(runs.length);
    expect(stored.filter((r) => r.finished_at === null)).toEqual([]);
    const slack: SandboxEntry[] = (await (await fetch(`${cluster.sandboxUrl}/ledger`)).json()).requests.filter((e: SandboxEntry) =>
      e.path.endsWith('/chat.postMessage'),
    );
    for (const run of runs) {
      const sentToSlack = slack.filter((e) => JSON.stringify(e.body).includes(run.text));
      if (run.answer.body.success) expect(sentToSlack).toHaveLength(1);
      else {
        expect(run.answer.body.metadata.errorType).toBe('outcome_unknown');
        expect(sentToSlack.length).toBeLessThanOrEqual(1);
      }
    }
    say(`automation runs: ${runs.filter((r) => r.answer.body.success).length} of ${runs.length} succeeded`);

    // Chat: every conversation answered in full, each message stored once and in order.
    say(`chat turns said again after an error frame: ${sent.chats.reduce((n, c) => n + c.resent, 0)}`);
    const reply = demoFlowGraph.nodes.find((n) => n.type === 'ai_reply') as { facts: string[] };
    for (const c of sent.chats) {
      expect(c.said).toEqual(['Hi! I am Ava from Switchboard.', 'What is your email address?', 'Thanks! What would you like to know?', reply.facts[0]]);
      const messages = await db.query<{ sender: string; content: string }>('SELECT sender, content FROM chat_messages WHERE session_id = $1 ORDER BY seq', [
        c.sessionId,
      ]);
      expect(messages.map((m) => `${m.sender}: ${m.content}`)).toEqual([
        'bot: Hi! I am Ava from Switchboard.',
        'bot: What is your email address?',
        'user: ann@example.com',
        'bot: Thanks! What would you like to know?',
        'user: What does Switchboard do?',
        `bot: ${reply.facts[0]}`,
      ]);
    }
  });
});
