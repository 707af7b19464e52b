import net from 'node:net';
import { Client, Connection } from '@temporalio/client';
import { executeAutomation, type ExecuteRequest } from '../../src/automation/execute';
import { DomainError } from '../../src/core/errors';
import { knownErrorStatus } from '../../src/http/error-status';
import { startTestApp, type TestApp } from '../helpers/stack';

// Issue 22 §7: every failure to start or await an automation run answered 503 "workflow engine unavailable, please
// retry", so a client retried requests that could never succeed. Only an engine that cannot be reached is a 503.
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const auth = (workspaceId: string) => ({ workspaceId, userId: null, superuser: true, allowedIntegrations: null });
const request = (requestBodyJson: unknown): ExecuteRequest => ({
  automationType: 'proxy',
  nodeParams: { params: { apiMethod: 'POST', apiURL: 'https://example.com/hook', requestBodyJson } },
});

/** A loopback port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the automation endpoint and the workflow engine', () => {
  it('answers 503 (retry) when Temporal cannot be reached', async () => {
    const { workspaceId } = await app.newWorkspace({ superuser: true });
    // No retry interceptor: the SDK would retry UNAVAILABLE for ~20 s before giving up.
    const connection = Connection.lazy({ address: `127.0.0.1:${await closedPort()}`, interceptors: [] });
    try {
      const client = new Client({ connection, namespace: app.config.TEMPORAL_NAMESPACE });
      const deps = { db: app.db, client, taskQueuePrefix: app.config.TEMPORAL_TASK_QUEUE_PREFIX };
      const err = await executeAutomation(deps, auth(workspaceId), request({ n: 1 }), Date.now()).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DomainError);
      expect(err).toMatchObject({ code: 'workflow_unavailable', message: expect.stringContaining('workflow engine unavailable') });
      expect(knownErrorStatus(err)).toBe(503);
    } finally {
      await connection.close();
    }
  });

  it('does not take a run the engine cannot be given (its input will not serialize) for the engine being down', async () => {
    const { workspaceId } = await app.newWorkspace({ superuser: true });
    const deps = { db: app.db, client: app.temporal.client, taskQueuePrefix: app.config.TEMPORAL_TASK_QUEUE_PREFIX };
    const err = await executeAutomation(deps, auth(workspaceId), request({ n: 1n }), Date.now()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(knownErrorStatus(err)).toBeUndefined(); // not a known failure: a 500, never the 503 of an unreachable engine
    expect((err as Error).message).toMatch(/Unable to convert .* to payload/);
  });
});
