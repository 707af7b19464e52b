import { ActionInputError, VendorError, type Connection } from '../../src/integrations/define';
import { runIntegrationAction, type RunActionResult } from '../../src/integrations/run';
import { startVendorFake, type RecordedRequest, type VendorFake } from './vendor-fake';

/** A connection as a test gives it: secrets and settings (kind defaults to the integration's first). */
export type TestConnection = Pick<Connection, 'kind' | 'secrets'> & { settings?: Record<string, string> };

interface RunOptions {
  connection?: TestConnection;
  callData?: Record<string, unknown>;
}

/** Runs actions of one integration against a fake vendor on loopback. */
export interface ActionHarness {
  readonly fake: VendorFake;
  /** The delays the shared client waited between attempts, in order (since the last run started). */
  readonly sleeps: number[];
  /** Runs an action through runIntegrationAction; a declared action counts as covered once a run of it succeeds. */
  run(action: string, params: unknown, opts?: RunOptions): Promise<RunActionResult>;
  /** Runs an action that must fail and returns its error. */
  fail(action: string, params: unknown, opts?: RunOptions): Promise<VendorError | ActionInputError>;
  /** The single request the last run sent (fails the test when it sent none or several). */
  sent(): RecordedRequest;
}

/**
 * Declares the actions of `integration` this test file covers, with the connection the runs use. The registry test
 * reads these declarations (the literal `actionHarness('<key>', [...])` call) to check every action has a request
 * test; after the file, each declared action must have run successfully against the fake at least once.
 */
export function actionHarness(integration: string, actions: string[], connection: TestConnection): ActionHarness {
  let fake: VendorFake | undefined;
  const sleeps: number[] = [];
  const covered = new Set<string>();

  beforeAll(async () => {
    fake = await startVendorFake();
  });
  afterAll(async () => {
    await fake?.stop();
    expect(actions.filter((a) => !covered.has(a))).toEqual([]);
  });

  const exec = async (action: string, params: unknown, opts: RunOptions = {}): Promise<RunActionResult> => {
    if (!actions.includes(action)) throw new Error(`${integration}.${action} is not declared in this file's actionHarness`);
    fake!.clear();
    sleeps.length = 0;
    const conn = opts.connection ?? connection;
    return runIntegrationAction({
      integration,
      action,
      params,
      connection: { id: 'conn-test', integration, kind: conn.kind, secrets: conn.secrets, settings: conn.settings ?? {} },
      idempotencyKey: 'req-harness-1',
      call: { callData: opts.callData },
      baseUrls: { [integration]: fake!.url },
      ssrfAllowlist: ['127.0.0.1/8'],
      http: { retryBaseMs: 1, sleep: async (ms) => void sleeps.push(ms) },
    });
  };

  return {
    get fake() {
      return fake!;
    },
    sleeps,
    async run(action, params, opts) {
      const result = await exec(action, params, opts);
      covered.add(action);
      return result;
    },
    async fail(action, params, opts) {
      try {
        await exec(action, params, opts);
      } catch (err) {
        if (err instanceof VendorError || err instanceof ActionInputError) return err;
        throw err;
      }
      throw new Error(`${integration}.${action} succeeded; a failure was expected`);
    },
    sent() {
      expect(fake!.requests).toHaveLength(1);
      return fake!.requests[0]!;
    },
  };
}

/** What vendorFakeRunner gives a test file: the fake, the client's waits (this test's) and a runner. */
export interface VendorFakeRunner {
  readonly fake: VendorFake;
  /** The delays the shared client waited between attempts in the current test, in order. */
  readonly waits: number[];
  run(action: string, params: unknown, connection?: Connection): Promise<RunActionResult>;
}

/**
 * A fake vendor for one integration's test file, cleared before each test (a test may inspect several runs'
 * requests); `run` calls runIntegrationAction with the file's connection and idempotency key.
 */
export function vendorFakeRunner(integration: string, connection: Connection, idempotencyKey: string): VendorFakeRunner {
  let fake: VendorFake | undefined;
  const waits: number[] = [];
  beforeAll(async () => {
    fake = await startVendorFake();
  });
  afterAll(() => fake?.stop());
  beforeEach(() => {
    fake!.clear();
    waits.length = 0;
  });
  return {
    get fake() {
      return fake!;
    },
    waits,
    run: (action, params, conn = connection) =>
      runIntegrationAction({ action, integration, params, connection: conn, idempotencyKey, baseUrls: { [integration]: fake!.url }, ssrfAllowlist: ['127.0.0.1/8'], http: { sleep: async (ms) => void waits.push(ms) } }),
  };
}
