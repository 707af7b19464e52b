import type { AddressInfo } from 'node:net';
import { createApp } from '../../src/api/app';
import { createDb } from '../../src/db/pool';
import { createLogger } from '../../src/telemetry/log';
import { connectTemporal } from '../../src/temporal/client';
import { freePort } from '../helpers/processes';
import { testConfig } from '../helpers/stack';

describe('/readyz', () => {
  it('answers 503 and names Postgres when the database is unreachable, while /healthz stays 200', async () => {
    const config = testConfig();
    const deadPort = await freePort();
    const db = createDb(`postgres://nobody:nothing@127.0.0.1:${deadPort}/none`, { max: 1 });
    const temporal = await connectTemporal(config);
    const app = createApp({ config, db, temporal, logger: createLogger('silent', 'test') });
    const server = app.koa.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const ready = await fetch(`${base}/readyz`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({
        status: 'failed',
        message: 'not ready: postgres unreachable',
        checks: { postgres: 'unreachable', temporal: 'ok' },
      });
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      // A route that needs the database answers 503 with Retry-After in the error shape; the process stays up.
      const res = await fetch(`${base}/v1/me`, { headers: { authorization: 'Bearer sbk_x' } });
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(await res.json()).toEqual({ status: 'failed', message: 'Service temporarily unavailable, retry shortly' });
    } finally {
      server.close();
      await app.close();
      await temporal.connection.close();
      await db.close();
    }
  });
});
