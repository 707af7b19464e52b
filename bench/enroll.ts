// P2 (quality-figures.md): POST /v1/lead/sendtoworkflow with a new lead each time, through the real api (auth,
// validation, lead creation, the SDK's typed start), against a raw client.workflow.start of the same workflow and input.
import { Client, Connection } from '@temporalio/client';
import { randomBytes, randomUUID } from 'node:crypto';
import { migrate } from '../src/db/migrate';
import { createDb } from '../src/db/pool';
import { createApiKey } from '../src/workspaces/db/api-keys';
import { importJourney } from '../src/journeys/db/journeys';
import { parseJourneySteps } from '../src/journeys/schema';
import { normalizePhone } from '../src/core/phone';
import { enrollmentWorkflowId } from '../src/temporal/ids';
import { ensureSearchAttributes, runSearchAttributes } from '../src/temporal/search-attributes';
import { taskQueue } from '../src/temporal/task-queues';
import type { JourneyInput } from '../workflows/journeys/journey-messages';
import { report, type BenchContext, type Figure } from './lib';
import { clusterTemporal } from './cluster-temporal';
import { benchWorkspace } from './in-process';
import { forkApi } from './server-process';
import { jsonPoster } from './http-load';
import { compareStarts, SaturationMeters, terminateBenchRuns, warmupOptions } from './steady';

/** Shown by `npm run bench -- --list`. */
export const description = 'P2: POST /v1/lead/sendtoworkflow (new lead) vs raw client.workflow.start of journeyEnrollment; saturation and one at a time';

/** quality-figures.md: at least 0.90 of the baseline's throughput. */
export const goal = 0.9;

export const options = {
  requests: 'enrollments per side per saturation round, in two runs of half (default 600)',
  rounds: 'alternating rounds, each A B B A (default 6)',
  concurrency: 'in flight at saturation (default 32)',
  serial: 'enrollments per side per one-at-a-time round, in two runs of half (default 60)',
  'log-level': 'LOG_LEVEL of the api (default info: one line per request)',
  ...warmupOptions,
  profile: 'write a V8 CPU profile of the api process into this directory',
  cluster:
    'also measure on a running `npm run cluster`: its Temporal frontend (host:port, e.g. 127.0.0.1:7233), mTLS with the certificates under .data/cluster/pki',
};

const STEPS = parseJourneySteps([
  { id: 'hello', kind: 'tag', tag: 'bench' },
  { id: 'stop', kind: 'end' },
]);

export async function run(ctx: BenchContext): Promise<number> {
  const clusterAddress = ctx.flags.str('cluster', '');
  const databaseUrl = await ctx.databaseUrl();
  const db = createDb(databaseUrl, { max: 2 });
  ctx.defer(() => db.close());
  await migrate(db);
  const ws = await benchWorkspace(db, ctx, 'enroll');
  const { key } = await createApiKey(db, ws.id, { name: 'bench' });
  const journey = await importJourney(db, ws.id, { name: 'bench', steps: STEPS });
  const setup = { databaseUrl, db, workspaceId: ws.id, key, journey };

  const dev = await measureOn(ctx, setup, ctx.temporal, {});
  const figures = dev.figures;
  if (clusterAddress) {
    ctx.say(`The same on the cluster's Temporal server at ${clusterAddress} (mTLS)…`);
    const cluster = clusterTemporal(clusterAddress, ctx.temporal.namespace);
    const onCluster = await measureOn(ctx, setup, cluster.temporal, cluster.processEnv);
    figures.push(
      ...onCluster.figures.map(([what, value, unit]): Figure => [`cluster: ${what}`, value, unit]),
      ['cluster / dev server: raw start throughput', onCluster.raw / dev.raw, 'x'],
      ['cluster / dev server: sendtoworkflow throughput', onCluster.api / dev.api, 'x'],
    );
  }
  return report('enroll', figures, {
    value: dev.ratio,
    what: `sendtoworkflow / raw start throughput at ${dev.concurrency} in flight, median of ${dev.rounds} rounds, each A B B A${clusterAddress ? ' (dev server)' : ''}`,
  });
}

interface Setup {
  databaseUrl: string;
  db: ReturnType<typeof createDb>;
  workspaceId: string;
  key: string;
  journey: { id: string; version: number };
}

/** The whole measurement against one Temporal server: its figures, the ratio and both sides' throughput. */
async function measureOn(ctx: BenchContext, setup: Setup, temporal: BenchContext['temporal'], apiEnv: NodeJS.ProcessEnv) {
  const requests = ctx.flags.int('requests', 600);
  const rounds = ctx.flags.int('rounds', 6);
  const concurrency = ctx.flags.int('concurrency', 32);
  const serial = ctx.flags.int('serial', 60);
  const logLevel = ctx.flags.str('log-level', 'info');
  const profileDir = ctx.flags.str('profile', '');
  const { databaseUrl, db, key, journey } = setup;
  const ws = { id: setup.workspaceId };
  const connection = await Connection.connect(temporal.connect);
  ctx.defer(() => connection.close());
  const client = new Client({ connection, namespace: temporal.namespace });
  await ensureSearchAttributes(connection, temporal.namespace);
  // No worker polls this queue: both sides measure the start alone; the runs are terminated at the end.
  const prefix = `bench-enroll-${randomBytes(3).toString('hex')}`;
  const queue = taskQueue('journeys', prefix);
  ctx.defer(() => terminateBenchRuns(ctx, client, queue, temporal.namespace, 'enroll'));

  ctx.say(`Starting the api in a child process (LOG_LEVEL=${logLevel}, task queue ${queue}, no workers).`);
  const {
    message: { port },
    pid: apiPid,
    cpu,
    usage,
  } = await forkApi(ctx, { databaseUrl, temporal, prefix, logLevel, env: apiEnv, profileDir });

  const meters = await SaturationMeters.of(db, { pid: apiPid, usage });

  // The phones are made before measuring: the load generator's own work stays out of the api side's figures.
  let seq = 0;
  const phones: string[] = [];
  const nextPhone = (): string => phones.pop() ?? makePhone();
  const makePhone = (): string => {
    for (;;) {
      const phone = String(17142000000 + seq++);
      if (normalizePhone(phone)) return phone;
    }
  };
  const reserve = (n: number) => {
    for (let i = 0; i < n; i++) phones.push(makePhone());
  };
  const post = jsonPoster(port, concurrency, ctx.defer);
  const headers = { authorization: `Bearer ${key}` };
  const body = (phone: string) => JSON.stringify({ workflow_id: journey.id, record: { phone, first_name: 'Bench' } });
  const enroll = async () => {
    const res = await post('/v1/lead/sendtoworkflow', body(nextPhone()), headers);
    if (res.status !== 200) throw new Error(`HTTP ${res.status} ${res.text.slice(0, 200)}`);
  };
  const rawStart = async () => {
    const leadId = randomUUID();
    const input: JourneyInput = { workspaceId: ws.id, journeyId: journey.id, leadId, version: journey.version, steps: STEPS };
    await client.workflow.start('journeyEnrollment', {
      taskQueue: queue,
      workflowId: enrollmentWorkflowId(journey.id, leadId),
      args: [input],
      workflowIdConflictPolicy: 'USE_EXISTING',
      typedSearchAttributes: runSearchAttributes.journeyEnrollment({ workspaceId: ws.id, leadId, journeyId: journey.id }),
    });
  };

  await enroll(); // fails loudly (HTTP status and body) before any measuring when the api cannot enroll
  const compared = await compareStarts(ctx, {
    rounds,
    requests,
    serial,
    concurrency,
    meters,
    apiCpu: cpu,
    raw: rawStart,
    api: enroll,
    beforeApi: reserve,
    labels: { raw: 'raw client.workflow.start', api: 'POST /v1/lead/sendtoworkflow', apiShort: 'sendtoworkflow', op: 'enrollment' },
  });
  const { ratio, gap } = compared;
  const figures: Figure[] = [
    ...compared.figures,
    ['goal: ratio >= 0.90; one at a time p50 within 5 ms', `${ratio >= 0.9 ? 'ratio met' : 'ratio missed'}, ${gap <= 5 ? 'p50 met' : 'p50 missed'}`],
  ];
  return { figures, ratio, raw: compared.rawPerSecond, api: compared.apiPerSecond, concurrency, rounds };
}
