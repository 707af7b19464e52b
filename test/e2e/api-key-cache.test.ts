import { createApiKey } from '../../src/workspaces/db/api-keys';
import { ApiKeyResolver } from '../../src/auth/http/api-key-auth';
import { createLogger } from '../../src/telemetry/log';
import { startTestApp, type TestApp } from '../helpers/stack';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('the api-key cache', () => {
  it('when full forgets only the least recently used key, not all of them', async () => {
    const { workspaceId } = await app.newWorkspace();
    const keys = await Promise.all([1, 2, 3, 4].map((n) => createApiKey(app.db, workspaceId, { name: `k${n}` })));
    const [k1, k2, k3, k4] = keys.map((k) => k.key) as [string, string, string, string];
    const resolver = new ApiKeyResolver(app.db, createLogger('silent', 'test'), { maxKeys: 3 });
    try {
      for (const key of [k1, k2, k3, k1, k4]) expect(await resolver.resolve(key)).toBeDefined();
      // Revoked behind the cache's back (no NOTIFY, and this resolver does not listen): only a key it forgot is read again.
      await app.db.query('UPDATE api_keys SET revoked_at = now() WHERE workspace_id = $1', [workspaceId]);
      const seen = await Promise.all([k1, k2, k3, k4].map(async (key) => (await resolver.resolve(key)) !== undefined));
      expect(seen).toEqual([true, false, true, true]);
    } finally {
      await resolver.close();
    }
  });

  it('forgets every key when a revocation is announced, so a revoked key stops at once', async () => {
    const { workspaceId } = await app.newWorkspace();
    const { key, row } = await createApiKey(app.db, workspaceId, { name: 'listened' });
    const resolver = new ApiKeyResolver(app.db, createLogger('silent', 'test'));
    try {
      await resolver.listen();
      expect(await resolver.resolve(key)).toMatchObject({ workspaceId, apiKeyId: row.id });
      await app.db.query('UPDATE api_keys SET revoked_at = now() WHERE id = $1', [row.id]);
      expect(await resolver.resolve(key)).toBeDefined(); // cached, nothing announced yet
      await app.db.query("SELECT pg_notify('api_keys_changed', $1)", [workspaceId]);
      for (;;) {
        if ((await resolver.resolve(key)) === undefined) break;
        await new Promise((r) => setTimeout(r, 50));
      }
    } finally {
      await resolver.close();
    }
  });
});
