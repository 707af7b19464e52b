import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client as PgClient } from 'pg';
import { temporalConnectOptions } from '../temporal/connection-config';
import { ensureSearchAttributes } from '../temporal/search-attributes';
import { temporalTlsEnv, type ClusterPki } from './cluster-pki';
import { run } from './go-install';
import { managedProcess, type ManagedProcess } from './managed-process';
import { portOpen } from './net';
import {
  SQL_PLUGIN,
  TEMPORAL_DATABASES,
  TEMPORAL_DYNAMIC_CONFIG,
  temporalServerConfig,
  temporalUiConfig,
  type TemporalPersistence,
  type TemporalServerPorts,
} from './temporal-cluster-config';
import type { TemporalServerBinaries } from './temporal-server-build';

/**
 * Creates the server's two databases and brings their schemas to the version the server needs, with Temporal's SQL
 * tool and the schema files of its module (the server creates neither itself). Safe to repeat.
 */
export async function setupTemporalSchema(bin: TemporalServerBinaries, db: TemporalPersistence): Promise<void> {
  const tool = (database: string, args: string[]) =>
    run(bin.sqlTool, ['--plugin', SQL_PLUGIN, '--ep', db.host, '-p', String(db.port), '-u', db.user, '--pw', db.password, '--db', database, ...args]);
  for (const [database, folder] of [
    [TEMPORAL_DATABASES.default, 'temporal'],
    [TEMPORAL_DATABASES.visibility, 'visibility'],
  ] as const) {
    await tool(database, ['create-database']).catch((err: Error) => {
      if (!/already exists/.test(err.message)) throw err;
    });
    if (!(await hasSchemaVersionTable(db, database))) await tool(database, ['setup-schema', '-v', '0.0']);
    await tool(database, ['update-schema', '-d', path.join(bin.schemaDir, folder, 'versioned')]);
  }
}

async function hasSchemaVersionTable(db: TemporalPersistence, database: string): Promise<boolean> {
  const client = new PgClient({ host: db.host, port: db.port, user: db.user, password: db.password, database });
  await client.connect();
  try {
    return (await client.query(`SELECT to_regclass('public.schema_version') AS t`)).rows[0].t !== null;
  } finally {
    await client.end();
  }
}

/** The Temporal server as one process (all four services) with the generated config under dir. */
export function temporalServerProcess(o: {
  bin: TemporalServerBinaries;
  dir: string;
  ports: TemporalServerPorts;
  db: TemporalPersistence;
  pki: ClusterPki;
}): ManagedProcess {
  const configDir = path.join(o.dir, 'config');
  mkdirSync(configDir, { recursive: true });
  const dynamicConfigFile = path.join(o.dir, 'dynamicconfig.yaml');
  writeFileSync(dynamicConfigFile, TEMPORAL_DYNAMIC_CONFIG);
  writeFileSync(path.join(configDir, 'cluster.yaml'), temporalServerConfig({ ports: o.ports, db: o.db, pki: o.pki, dynamicConfigFile }));
  const address = `127.0.0.1:${o.ports.frontend}`;
  return managedProcess({
    name: 'the Temporal server',
    command: o.bin.server,
    // No authorizer: the frontend admits any client whose certificate the cluster's CA signed.
    args: ['--root', o.dir, '--config', 'config', '--env', 'cluster', '--allow-no-auth', 'start'],
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    logFile: path.join(o.dir, 'temporal-server.log'),
    ready: () => frontendServing(o.pki, address),
    readyTimeoutMs: 120_000,
    graceMs: 15_000,
  });
}

/** True once the frontend answers its health check to a client presenting the operator certificate. */
async function frontendServing(pki: ClusterPki, address: string): Promise<boolean> {
  if (!(await portOpen('127.0.0.1', Number(address.split(':')[1])))) return false;
  const connection = await operatorConnection(pki, address);
  try {
    const res = await connection.withDeadline(Date.now() + 3000, () => connection.healthService.check({}));
    return res.status === 1;
  } finally {
    await connection.close();
  }
}

/** A connection with the operator certificate, through the same TEMPORAL_* settings every process uses. */
function operatorConnection(pki: ClusterPki, address: string): Promise<Connection> {
  return Connection.connect({ ...temporalConnectOptions(temporalTlsEnv(pki, address, 'operator')), connectTimeout: '5s' });
}

/**
 * The setup step with operator rights: registers the namespace (3 days' retention) and every search attribute the
 * service uses, then waits until the namespace takes workflow calls (the frontend learns new namespaces by polling).
 */
export async function setupNamespace(pki: ClusterPki, address: string, namespace: string): Promise<string[]> {
  const connection = await operatorConnection(pki, address);
  try {
    await connection.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('3 days') }).catch((err: Error) => {
      if (!/already exists|AlreadyExists/i.test(err.message)) throw err;
    });
    const deadline = Date.now() + 90_000;
    for (;;) {
      try {
        const added = await ensureSearchAttributes(connection, namespace);
        await connection.workflowService.countWorkflowExecutions({ namespace, query: '' });
        return added;
      } catch (err) {
        if (Date.now() > deadline) throw new Error(`namespace ${namespace} not usable after 90 s: ${(err as Error).message}`);
        await new Promise((r) => setTimeout(r, 1000));
      }
    }
  } finally {
    await connection.close();
  }
}

/** The Temporal UI server, on the frontend with the operator certificate. */
export function temporalUiProcess(o: {
  binary: string;
  dir: string;
  port: number;
  frontend: string;
  pki: ClusterPki;
  namespace: string;
  codecEndpoint?: string;
}): ManagedProcess {
  const configDir = path.join(o.dir, 'config');
  mkdirSync(configDir, { recursive: true });
  writeFileSync(path.join(configDir, 'cluster.yaml'), temporalUiConfig(o));
  return managedProcess({
    name: 'the Temporal UI',
    command: o.binary,
    args: ['--root', o.dir, '--config', 'config', '--env', 'cluster', 'start'],
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    logFile: path.join(o.dir, 'temporal-ui.log'),
    ready: () => portOpen('127.0.0.1', o.port),
  });
}
