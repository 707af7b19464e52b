import type { NativeConnection, Worker } from '@temporalio/worker';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Db } from '../src/db/pool';

export interface WorkerHealth {
  url: string;
  close(): Promise<void>;
}

const within = <T>(ms: number, p: Promise<T>) =>
  Promise.race([p, new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timed out')), ms).unref())]);

/** What /readyz answers: ready when every worker polls and Postgres and Temporal answer, and which queues it polls. */
async function readiness(workers: Worker[], db: Db, connection: NativeConnection) {
  const [postgres, temporal] = await Promise.all([
    within(2000, db.ping()).then(
      () => true,
      () => false,
    ),
    within(2000, connection.healthService.check({})).then(
      (r) => r.status === 1,
      () => false,
    ),
  ]);
  const states = Object.fromEntries(workers.map((w) => [w.options.taskQueue, w.getState()]));
  const polling = Object.values(states).every((s) => s === 'RUNNING');
  const ready = polling && postgres && temporal;
  const down = [!polling && 'workers', !postgres && 'postgres', !temporal && 'temporal'].filter(Boolean);
  return {
    status: ready ? 200 : 503,
    body: {
      status: ready ? 'success' : 'failed',
      message: ready ? 'ready' : `not ready: ${down.join(', ')}`,
      taskQueues: workers.map((w) => w.options.taskQueue),
      checks: { workers: states, postgres: postgres ? 'ok' : 'unreachable', temporal: temporal ? 'ok' : 'unreachable' },
    },
  };
}

/** The worker process's /healthz and /readyz on its own port (the SDK's metrics port serves only /metrics). */
export async function startWorkerHealth(o: { host: string; port: number; workers: Worker[]; db: Db; connection: NativeConnection }): Promise<WorkerHealth> {
  const server = http.createServer((req, res) => {
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, { status: 'failed', message: `Method ${req.method} is not allowed` });
    if (path === '/healthz') return send(200, { status: 'success', message: 'ok' });
    if (path !== '/readyz') return send(404, { status: 'failed', message: `No route for ${req.method} ${path}` });
    readiness(o.workers, o.db, o.connection).then(
      (r) => send(r.status, r.body),
      (err: Error) => send(503, { status: 'failed', message: `not ready: ${err.message}` }),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${o.host === '0.0.0.0' ? '127.0.0.1' : o.host}:${port}`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
