// The extra cost of a first call on an OAuth connection whose token is about to expire: the refresh before the call.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { createConnection, ensureFreshConnection, loadConnection } from '../../src/connections/store';
import type { Db } from '../../src/db/pool';
import { findIntegration } from '../../src/integrations/registry';
import type { Figure } from '../lib';
import { median } from '../lib';

/**
 * Times ensureFreshConnection for `count` connections of the workspace expiring in 30 s (each refreshed through a
 * loopback token endpoint: row lock, token request, sealing, update) against the same call on a fresh token.
 */
export async function measureRefresh(db: Db, workspaceId: string, allow: string[], count: number): Promise<Figure[]> {
  const tokens = http.createServer((req, res) =>
    req
      .resume()
      .on('end', () =>
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ access_token: `at-${Math.random()}`, refresh_token: 'rt', expires_in: 3600 })),
      ),
  );
  await new Promise<void>((r) => tokens.listen(0, '127.0.0.1', r));
  const tokenUrl = `http://127.0.0.1:${(tokens.address() as AddressInfo).port}/token`;
  const auth = findIntegration('google_calendar')!.auth;
  const refresh: number[] = [];
  const fresh: number[] = [];
  try {
    for (let i = 0; i < count; i++) {
      await createConnection(db, {
        workspaceId,
        userId: null,
        integration: 'google_calendar',
        kind: 'oauth2',
        secrets: { access_token: 'at', refresh_token: 'rt' },
        settings: { token_url: tokenUrl },
        expiresAt: new Date(Date.now() + 30_000),
      });
      const expiring = (await loadConnection(db, { workspaceId, userId: null, integration: 'google_calendar' }))!;
      let t = performance.now();
      const renewed = await ensureFreshConnection(db, expiring, auth, { ssrfAllowlist: allow });
      refresh.push(performance.now() - t);
      t = performance.now();
      await ensureFreshConnection(db, renewed, auth, { ssrfAllowlist: allow });
      fresh.push(performance.now() - t);
    }
  } finally {
    await new Promise<void>((r) => tokens.close(() => r()));
  }
  return [
    ['OAuth first call: token refresh before it (loopback token endpoint) p50', median(refresh), 'ms'],
    ['OAuth call on a fresh token: freshness check p50', median(fresh), 'ms'],
  ];
}
