import { ActionInputError, VendorError, type Connection } from '../../src/integrations/define';
import { runIntegrationAction, type RunActionResult } from '../../src/integrations/run';
import { baseOverride, caseConnection, type IntegrationCases } from './action-cases';
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
  /** Runs an action through runIntegrationAction. */
  run(action: string, params: unknown, opts?: RunOptions): Promise<RunActionResult>;
  /** Runs an action that must fail and returns its error. */
  fail(action: string, params: unknown, opts?: RunOptions): Promise<VendorError | ActionInputError>;
  /** The single request the last run sent (fails the test when it sent none or several). */
  sent(): RecordedRequest;
}

/**
 * A fake vendor for one integration's test file, on the connection of its request cases (test/integrations/cases/),
 * reached the way the cases reach it (the integration's base path on the fake, or the connection's own host).
 */
export function actionHarness(set: IntegrationCases): ActionHarness {
  const integration = set.integration;
  let fake: VendorFake | undefined;
  const sleeps: number[] = [];

  beforeAll(async () => {
    fake = await startVendorFake();
  });
  afterAll(() => fake?.stop());

  const exec = async (action: string, params: unknown, opts: RunOptions = {}): Promise<RunActionResult> => {
    fake!.clear();
    sleeps.length = 0;
    const base = baseOverride(set, fake!.url);
    return runIntegrationAction({
      integration,
      action,
      params,
      connection: opts.connection ? { id: 'conn-test', integration, settings: {}, ...opts.connection } : caseConnection(set, fake!.url),
      idempotencyKey: 'req-harness-1',
      call: { callData: opts.callData },
      baseUrls: base === undefined ? {} : { [integration]: base },
      ssrfAllowlist: ['127.0.0.1/8'],
      http: { retryBaseMs: 1, sleep: async (ms) => void sleeps.push(ms) },
    });
  };

  return {
    get fake() {
      return fake!;
    },
    sleeps,
    run: exec,
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
  /** The connection of the integration's request cases, pointing at this fake where it holds a host. */
  readonly connection: Connection;
  run(action: string, params: unknown, connection?: Connection): Promise<RunActionResult>;
}

/**
 * A fake vendor for one integration's test file, cleared before each test (a test may inspect several runs'
 * requests); `run` calls runIntegrationAction with the connection of the integration's request cases (or the one given)
 * and the file's idempotency key.
 */
export function vendorFakeRunner(set: IntegrationCases, idempotencyKey: string): VendorFakeRunner {
  const integration = set.integration;
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
    get connection() {
      return caseConnection(set, fake!.url);
    },
    waits,
    run: (action, params, conn = caseConnection(set, fake!.url)) => {
      const base = baseOverride(set, fake!.url);
      return runIntegrationAction({
        action,
        integration,
        params,
        connection: conn,
        idempotencyKey,
        baseUrls: base === undefined ? {} : { [integration]: base },
        ssrfAllowlist: ['127.0.0.1/8'],
        http: { sleep: async (ms) => void waits.push(ms) },
      });
    },
  };
}
