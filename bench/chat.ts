// Web chat (issue 12): connect → the three opening frames, and one chat turn (user frame → reply frame) through the
// real api and chatSession workflow, against a bare `ws` server and a raw workflow Update running a local activity;
// then the memory each idle chat connection costs the api process.
import { Connection } from '@temporalio/client';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import WebSocket, { WebSocketServer } from 'ws';
import { migrate } from '../src/db/migrate';
import { createDb } from '../src/db/pool';
import { importFlow } from '../src/chat/db/flows';
import { createWorkspace } from '../src/workspaces/db/workspaces';
import { chatWorkflowId } from '../src/temporal/ids';
import { ensureSearchAttributes } from '../src/temporal/search-attributes';
import { breakdown, type TurnTimes } from './chat/breakdown';
import { median, percentile, report, type BenchContext, type Figure } from './lib';
import { holdIdle } from './chat/idle';
import { forkServer } from './server-process';
import { openRawTemporal } from './temporal-raw';
import { rawTurnUpdate } from './workflows/raw';

/** Shown by `npm run bench -- --list`. */
export const description = 'Web chat: connect→3 frames vs a bare ws server, one turn vs a raw Update with a local activity, memory per idle connection';

/** Raw Update p50 over chat-turn p50: the goal (20 ms against ~15 ms) is 0.75. */
export const goal = 0.75;

export const options = {
  connects: 'new anonymous conversations (connect → 3 frames) per side (default 100)',
  turns: 'chat turns per side, one at a time, split over the rounds (default 100)',
  rounds: 'alternated rounds of chat turns and raw Updates (default 4)',
  profile: 'write a V8 CPU profile of the api process into this directory',
  snapshots:
    'write V8 heap snapshots of the api process into this directory, before and while the idle connections are held (diagnosis: writing them skews the rss figure)',
  idle: 'idle chat connections one api process holds at once (default 10000: P6)',
  'idle-sessions': 'conversations (each with an open run) the idle connections are spread over (default 100)',
};

const GRAPH = {
  nodes: [
    { id: 'start', type: 'start', next: 'hello' },
    { id: 'hello', type: 'message', text: 'Hello!', next: 'chat' },
    { id: 'chat', type: 'ai_reply', prompt: 'Say hi.', facts: ['We are open on weekdays.'], next: 'loop' },
    { id: 'loop', type: 'decision', branches: [{ when: { keywords: ['bye'] }, next: 'end' }], otherwise: 'chat' },
    { id: 'end', type: 'end' },
  ],
};

/** Opens a socket and resolves with it once `frames` frames arrived. */
function connect(url: string, frames: number): Promise<{ ws: WebSocket; got: any[] }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const got: any[] = [];
    ws.on('message', (d) => {
      got.push(JSON.parse(d.toString()));
      if (got.length === frames) resolve({ ws, got });
    });
    ws.once('error', reject);
    ws.once('close', (code, reason) => got.length < frames && reject(new Error(`closed ${code} ${reason.toString()}`)));
  });
}

/** The next frame of a type on an open socket. */
function nextOfType(ws: WebSocket, type: string): Promise<any> {
  return new Promise((resolve) => {
    const on = (d: WebSocket.RawData) => {
      const f = JSON.parse(d.toString());
      if (f.type !== type) return;
      ws.off('message', on);
      resolve(f);
    };
    ws.on('message', on);
  });
}

interface Timed {
  p50: number;
  p99: number;
  errors: number;
  first?: string;
  /** Each successful op's latency (ms) and its send and reply times (epoch ms). */
  samples: number[];
  times: TurnTimes[];
}

const epoch = () => performance.timeOrigin + performance.now();

async function timed(n: number, op: (i: number) => Promise<unknown>, into?: Timed): Promise<Timed> {
  const out: Timed = into ?? { p50: NaN, p99: NaN, errors: 0, samples: [], times: [] };
  for (let i = 0; i < n; i++) {
    const sent = epoch();
    try {
      await op(i);
      const replied = epoch();
      out.samples.push(replied - sent);
      out.times.push({ sent, replied });
    } catch (err) {
      out.errors++;
      out.first ??= (err as Error).message;
    }
  }
  const sorted = [...out.samples].sort((a, b) => a - b);
  return Object.assign(out, { p50: percentile(sorted, 50), p99: percentile(sorted, 99) });
}

export async function run(ctx: BenchContext): Promise<number> {
  const connects = ctx.flags.int('connects', 100);
  const turns = ctx.flags.int('turns', 100);
  const rounds = ctx.flags.int('rounds', 4);
  const profileDir = ctx.flags.str('profile', '');
  const snapshotDir = ctx.flags.str('snapshots', '');
  if (snapshotDir) mkdirSync(snapshotDir, { recursive: true });
  const idle = ctx.flags.int('idle', 10_000);
  const idleSessions = ctx.flags.int('idle-sessions', 100);

  const databaseUrl = await ctx.databaseUrl();
  const db = createDb(databaseUrl, { max: 2 });
  ctx.defer(() => db.close());
  await migrate(db);
  const ws = await createWorkspace(db, { name: 'bench chat' });
  ctx.defer(() => db.query('DELETE FROM workspaces WHERE id = $1', [ws.id]).then(() => undefined));
  const flow = await importFlow(db, ws.id, { name: 'bench', publicChat: true, ownerName: 'Ava', graph: GRAPH });
  const connection = await Connection.connect(ctx.temporal.connect);
  await ensureSearchAttributes(connection, ctx.temporal.namespace).finally(() => connection.close());

  ctx.say('Starting the api with chat workers in a child process…');
  const serverEnv = {
    BENCH_DATABASE_URL: databaseUrl,
    BENCH_TEMPORAL_ADDRESS: ctx.temporal.address,
    TEMPORAL_NAMESPACE: ctx.temporal.namespace,
    TEMPORAL_TASK_QUEUE_PREFIX: `bench-chat-${randomBytes(3).toString('hex')}`,
    LOG_LEVEL: 'warn',
    WEBCHAT_FRAMES_PER_SECOND: '1000',
    // One key for both api processes: the idle one reads what the first one's workers sealed (payload codec).
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  };
  const server = await forkServer<{ port: number }>(ctx, path.join(__dirname, 'chat', 'server.ts'), serverEnv, profileDir);
  const api = `ws://127.0.0.1:${server.message.port}`;
  const chatUrl = (session: string, reconnect = false) => `${api}/webchat/flow/${flow.id}/session/${session}/r/${reconnect}`;

  // Bare ws server: the three frames at once on connection.
  const bare = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((resolve) => bare.once('listening', resolve));
  ctx.defer(() => new Promise<void>((resolve) => bare.close(() => resolve())));
  bare.on('connection', (s) => {
    s.send(JSON.stringify({ type: 'session', id: '1', session_id: 'x' }));
    s.send(JSON.stringify({ type: 'chatowner', id: '2', profilepic: '', name: 'Ava' }));
    s.send(JSON.stringify({ type: 'message', id: '3', profilepic: '', name: 'Ava', content: 'Hello!' }));
    s.on('message', (d) => s.send(JSON.stringify({ type: 'message', id: '4', content: d.toString() })));
  });
  const bareUrl = `ws://127.0.0.1:${(bare.address() as AddressInfo).port}`;

  ctx.say('Warming up…');
  for (let i = 0; i < 5; i++) (await connect(chatUrl('null'), 3)).ws.close();
  ctx.say(`Connect → 3 frames: ${connects} new conversations, then the bare server…`);
  const chatConnect = await timed(connects, async () => (await connect(chatUrl('null'), 3)).ws.close());
  const bareConnect = await timed(connects, async () => (await connect(bareUrl, 3)).ws.close());

  const perRound = Math.max(1, Math.round(turns / rounds));
  ctx.say(`One chat turn: ${rounds} alternated rounds of ${perRound} messages on one conversation and ${perRound} raw Updates with a local activity…`);
  const { ws: talk, got } = await connect(chatUrl('null'), 3);
  const session = got[0].session_id as string;
  const chatOnce = async (text: string) => {
    const reply = nextOfType(talk, 'message');
    talk.send(JSON.stringify({ type: 'message', message: text }));
    await reply;
  };
  const rt = await openRawTemporal(ctx);
  ctx.defer(() => rt.close());
  const rawWorkflowId = `${rt.taskQueue}-chat`;
  const chatTurn: Timed = { p50: NaN, p99: NaN, errors: 0, samples: [], times: [] };
  const rawTurn: Timed = { p50: NaN, p99: NaN, errors: 0, samples: [], times: [] };
  const ratios: number[] = [];
  await rt.runUntil(async () => {
    const handle = await rt.client.workflow.start('rawChat', { taskQueue: rt.taskQueue, workflowId: rawWorkflowId, args: [perRound * rounds + 5] });
    for (let i = 0; i < 5; i++) {
      await chatOnce('warm up');
      await handle.executeUpdate(rawTurnUpdate, { args: ['warm up'] });
    }
    // Alternated (which side goes first swaps each round), so the machine's drift hits both alike.
    for (let r = 0; r < rounds; r++) {
      const sides = [
        () => timed(perRound, (i) => chatOnce(`when are you open? ${r}.${i}`), chatTurn),
        () => timed(perRound, (i) => handle.executeUpdate(rawTurnUpdate, { args: [`turn ${r}.${i}`] }), rawTurn),
      ];
      const before = [chatTurn.samples.length, rawTurn.samples.length];
      for (const side of r % 2 ? sides.reverse() : sides) await side();
      const p50 = (t: Timed, from: number) => median(t.samples.slice(from));
      ratios.push(p50(rawTurn, before[1]!) / p50(chatTurn, before[0]!));
    }
  });
  talk.close();
  const history = async (workflowId: string) => (await rt.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  const chatSplit = breakdown(await history(chatWorkflowId(session)), chatTurn.times);
  const rawSplit = breakdown(await history(rawWorkflowId), rawTurn.times);

  // P6 on conversations whose run is open (the costly kind to connect to: the run is asked for its unstored turns),
  // many sockets per conversation (tabs, reconnect storms) as well as many conversations.
  ctx.say(`Memory: ${idleSessions} conversations with an open run (one turn each)…`);
  const conversations = [session];
  while (conversations.length < Math.min(idleSessions, idle)) {
    const { ws: c, got: opening } = await connect(chatUrl('null'), 3);
    const reply = nextOfType(c, 'message');
    c.send(JSON.stringify({ type: 'message', message: 'hello' }));
    await reply;
    c.close();
    conversations.push(opening[0].session_id as string);
  }
  // The sockets are held by an api process of their own, as deployed (workers run elsewhere: here in the first
  // child, which also answers its queries), so its memory is the api's and not the workers' native heaps.
  ctx.say('Starting an api process without workers for the idle connections…');
  const idleApi = await forkServer<{ port: number }>(ctx, path.join(__dirname, 'chat', 'server.ts'), { ...serverEnv, BENCH_WORKERS: '0' });
  const idleUrl = (session: string) => `ws://127.0.0.1:${idleApi.message.port}/webchat/flow/${flow.id}/session/${session}/r/false`;
  const target = (i: number) => ({ url: idleUrl(conversations[i % conversations.length]!), session: conversations[i % conversations.length]! });
  // A few connects first (code compiled, pools filled, as in any api that served traffic); their writes land (2 s
  // after the last turn) before the baseline, so the baseline is a quiet process.
  const warm = await holdIdle(Math.min(200, idle), target, ctx.say);
  await warm.release();
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  const before = await idleApi.memory();
  if (snapshotDir) await idleApi.heapSnapshot(path.resolve(snapshotDir, 'chat-idle-before.heapsnapshot'));
  ctx.say(`Memory: ${idle} idle connections (r/false) over ${conversations.length} conversations…`);
  const hold = await holdIdle(idle, target, ctx.say);
  ctx.say(`  ${hold.sockets.length} held after ${hold.seconds.toFixed(1)} s; measuring…`);
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const held = await idleApi.memory();
  if (snapshotDir) await idleApi.heapSnapshot(path.resolve(snapshotDir, 'chat-idle-held.heapsnapshot'));
  const mib = (k: 'rss' | 'heapTotal' | 'heapUsed' | 'external') => `${k} ${(before[k] / 2 ** 20).toFixed(1)} → ${(held[k] / 2 ** 20).toFixed(1)}`;
  ctx.say(`  api memory after GC, MiB: ${mib('rss')}, ${mib('heapTotal')}, ${mib('heapUsed')}, ${mib('external')}`);
  const dropped = hold.dropped();
  await hold.release();
  const n = Math.max(1, hold.sockets.length);
  const perConnection = (held.rss - before.rss) / n / 1024;
  const heapPerConnection = (held.heapUsed + held.external - before.heapUsed - before.external) / n / 1024;

  const figures: Figure[] = [
    ['connect→3 frames, chat: p50', chatConnect.p50, 'ms'],
    ['connect→3 frames, chat: p99', chatConnect.p99, 'ms'],
    ['connect→3 frames, bare ws: p50', bareConnect.p50, 'ms'],
    ['connect→3 frames, bare ws: p99', bareConnect.p99, 'ms'],
    ['connect errors', chatConnect.errors + bareConnect.errors, chatConnect.first ?? ''],
    ['one turn, chat (frame→reply): p50', chatTurn.p50, 'ms'],
    ['one turn, chat (frame→reply): p99', chatTurn.p99, 'ms'],
    ['one turn, raw Update + local activity: p50', rawTurn.p50, 'ms'],
    ['one turn, raw Update + local activity: p99', rawTurn.p99, 'ms'],
    ['turn errors', chatTurn.errors + rawTurn.errors, chatTurn.first ?? ''],
    ...(['chat', 'raw'] as const).flatMap((side): Figure[] => {
      const b = side === 'chat' ? chatSplit : rawSplit;
      return [
        [`one turn, ${side}, p50 split: send → task scheduled`, b.toServer, 'ms'],
        [`one turn, ${side}, p50 split: scheduled → worker`, b.toWorker, 'ms'],
        [`one turn, ${side}, p50 split: worker (task started → completed)`, b.worker, 'ms'],
        [`one turn, ${side}, p50 split: completed → reply`, b.back, 'ms'],
      ];
    }),
    ['one turn ratio, median of rounds (raw p50 / chat p50)', median(ratios)],
    ['idle connections held', hold.sockets.length, `of ${idle}`],
    ['idle connections open on the api when measured', held.sockets ?? NaN],
    ['idle connection errors (connect)', hold.errors + warm.errors, hold.first ?? warm.first ?? ''],
    ['idle connections dropped while held', dropped.count, dropped.first ?? ''],
    ['idle connections with permessage-deflate', hold.deflate],
    ['idle connect phase', hold.seconds, 's'],
    ['memory per idle connection (rss, after GC)', perConnection, 'KiB'],
    ['memory per idle connection (heap+external, after GC)', heapPerConnection, 'KiB'],
    ['connect ratio (bare p50 / chat p50)', bareConnect.p50 / chatConnect.p50],
  ];
  return report('chat', figures, { value: rawTurn.p50 / chatTurn.p50, what: 'raw Update p50 / chat turn p50' });
}
