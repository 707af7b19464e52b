import type { DataConverter } from '@temporalio/common';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { loadConfig } from '../../src/core/config';
import { temporalDataConverter } from '../../src/temporal/client';
import { temporal } from '@temporalio/proto';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { portOpen } from '../../src/devstack/net';
import { SA } from '../../src/temporal/search-attribute-keys';
import { freePort } from './processes';

/** The Java SDK release whose test server we run (Maven Central: io.temporal:temporal-test-server). */
export const TEST_SERVER_VERSION = '1.31.0';

const launcherSource = path.join(__dirname, 'java', 'LoopbackTestServer.java');

/** Cache folder shared by every clone on the machine, like the Temporal CLI's. */
export function testServerCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'switchboard', `temporal-test-server-${TEST_SERVER_VERSION}`);
}

const pom = `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>local.switchboard</groupId>
  <artifactId>temporal-test-server-classpath</artifactId>
  <version>1</version>
  <dependencies>
    <dependency><groupId>io.temporal</groupId><artifactId>temporal-test-server</artifactId><version>${TEST_SERVER_VERSION}</version></dependency>
  </dependencies>
</project>
`;

/**
 * The path of an executable that runs the time-skipping test server (bound to 127.0.0.1). The first call on a
 * machine fetches the jars from Maven Central with `mvn` and compiles the loopback launcher with `javac`; a lock
 * folder makes parallel test files wait for one fetch.
 */
export async function timeSkippingServerExecutable(): Promise<string> {
  const cache = testServerCacheDir();
  // The wrapper's name carries the launcher's hash: an edited launcher is compiled again.
  const hash = createHash('sha256').update(readFileSync(launcherSource)).digest('hex').slice(0, 12);
  const wrapper = path.join(cache, `test-server-${hash}`);
  if (existsSync(wrapper)) return wrapper;
  mkdirSync(cache, { recursive: true });
  const lock = path.join(cache, 'fetch.lock');
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // A lock older than 15 minutes belongs to a fetch that died.
      if (Date.now() - statSync(lock, { throwIfNoEntry: false })!.mtimeMs > 15 * 60_000) rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 2000));
      if (existsSync(wrapper)) return wrapper;
    }
  }
  try {
    if (existsSync(wrapper)) return wrapper;
    const lib = path.join(cache, 'lib');
    if (!existsSync(path.join(lib, `temporal-test-server-${TEST_SERVER_VERSION}.jar`))) {
      writeFileSync(path.join(cache, 'pom.xml'), pom);
      await run('mvn', ['-B', '-q', '-f', path.join(cache, 'pom.xml'), 'dependency:copy-dependencies', `-DoutputDirectory=${lib}`]);
    }
    const classes = path.join(cache, `classes-${hash}`);
    await run('javac', ['-nowarn', '-cp', `${lib}/*`, '-d', classes, launcherSource]);
    const script = `#!/bin/sh\nexec java -cp '${classes}:${lib}/*' LoopbackTestServer "$@"\n`;
    // Written last and renamed into place: its presence means the cache is complete.
    writeFileSync(`${wrapper}.tmp`, script);
    chmodSync(`${wrapper}.tmp`, 0o755);
    renameSync(`${wrapper}.tmp`, wrapper);
    return wrapper;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function run(cmd: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const keep = (d: Buffer) => (out = (out + d.toString()).slice(-4000));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (err) => reject(new Error(`${cmd} could not run (${err.message}): the time-skipping tests need Java 17+ and Maven`)));
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} failed (${code}):\n${out}`))));
  });
}

/**
 * Starts a time-skipping test environment whose clock starts at initialTime (a fixed instant, so nothing depends on
 * the machine's clock), with the app's search attributes registered. Time skips only while a result is awaited
 * through env.client or during env.sleep().
 */
export async function startTimeSkipping(opts: { initialTime: string }): Promise<TestWorkflowEnvironment> {
  const executable = await timeSkippingServerExecutable();
  const server = await launch(executable, opts.initialTime);
  let env: TestWorkflowEnvironment;
  try {
    env = await connectTimeSkipping(server.address);
  } catch (err) {
    await server.stop();
    throw err;
  }
  const teardown = env.teardown.bind(env);
  env.teardown = async () => {
    await teardown();
    await server.stop();
  };
  // The test server has no ListSearchAttributes, so ensureSearchAttributes cannot be used; Add is enough here.
  const searchAttributes: Record<string, temporal.api.enums.v1.IndexedValueType> = {};
  for (const k of Object.values(SA)) searchAttributes[k.name] = temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;
  await env.connection.operatorService.addSearchAttributes({ namespace: 'default', searchAttributes });
  return env;
}

/**
 * Runs the test server on a free loopback port and resolves once it accepts connections. We start it ourselves: the
 * SDK gives a server it starts 5 s to listen, which a JVM on a loaded machine can miss however often it is retried.
 */
async function launch(executable: string, initialTime: string): Promise<{ address: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(executable, [String(port), `--initial-time=${initialTime}`], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const keep = (d: Buffer) => (out = (out + d.toString()).slice(-4000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill();
    await exited;
  };
  const deadline = Date.now() + 120_000;
  while (!(await portOpen('127.0.0.1', port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`the time-skipping test server did not listen on ${port} (exit ${child.exitCode}):\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { address: `127.0.0.1:${port}`, stop };
}

/**
 * The SDK's time-skipping environment on a server that is already running: what createTimeSkipping builds (a client
 * that unlocks time while it awaits a result, sleep and currentTimeMs through the test service), minus the launch.
 * The SDK has no public constructor for that pairing, so its own factory is called with the existing-server option.
 */
function connectTimeSkipping(address: string): Promise<TestWorkflowEnvironment> {
  const factory = TestWorkflowEnvironment as unknown as {
    create(opts: {
      server: { type: 'existing' };
      address: string;
      namespace: string;
      supportsTimeSkipping: true;
      client: { dataConverter: DataConverter };
    }): Promise<TestWorkflowEnvironment>;
  };
  // The app's encrypting data converter, as every client and worker of the service has it.
  return factory.create({
    server: { type: 'existing' },
    address,
    namespace: 'default',
    supportsTimeSkipping: true,
    client: { dataConverter: temporalDataConverter(loadConfig()) },
  });
}

/** Moves the test server's clock forward to instant (time skipping; a workflow timer due before it fires). */
export async function skipTo(env: TestWorkflowEnvironment, instant: string): Promise<void> {
  const now = await env.currentTimeMs();
  const target = Date.parse(instant);
  if (target < now) throw new Error(`the test server's clock (${new Date(now).toISOString()}) is already past ${instant}`);
  await env.sleep(target - now);
}
