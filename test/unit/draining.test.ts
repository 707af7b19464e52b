import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createDraining, type Draining } from '../../src/http/middleware/draining';
import { errorHandler } from '../../src/http/middleware/errors';
import type { AppState } from '../../src/http/state';

// The api's stop: once draining begins, requests still running get a 503 in the error shape instead of holding the
// stop up (e.g. one waiting on a Temporal server that is going away), and new ones are refused the same way.
describe('draining the api on shutdown', () => {
  let server: Server;
  let base: string;
  let draining: Draining;
  const entered = new Set<string>();
  let release: () => void = () => undefined;

  beforeEach(async () => {
    draining = createDraining();
    entered.clear();
    const gate = new Promise<void>((resolve) => (release = resolve));
    const koa = new Koa<AppState>();
    koa.use(errorHandler());
    koa.use(draining.middleware);
    koa.use(async (ctx) => {
      entered.add(ctx.path);
      // /stuck never finishes by itself; /gated finishes when the test releases it.
      if (ctx.path === '/stuck') await new Promise(() => undefined);
      if (ctx.path === '/gated') await gate;
      ctx.body = { status: 'success' };
    });
    server = koa.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const until = async (path: string) => {
    while (!entered.has(path)) await new Promise((r) => setTimeout(r, 10));
  };

  it('answers a request still running after the grace period with 503 in the error shape', async () => {
    const stuck = fetch(`${base}/stuck`);
    await until('/stuck');
    await draining.begin(200);
    const res = await stuck;
    expect(res.status).toBe(503);
    expect(res.headers.get('connection')).toBe('close');
    expect(res.headers.get('retry-after')).toBe('1');
    expect(await res.json()).toEqual({ status: 'failed', message: 'Server is shutting down, retry shortly' });
  });

  it('lets a request that finishes within the grace period answer normally, then closes its connection', async () => {
    const gated = fetch(`${base}/gated`);
    await until('/gated');
    const drained = draining.begin(60_000);
    release();
    await drained;
    const res = await gated;
    expect(res.status).toBe(200);
    expect(res.headers.get('connection')).toBe('close');
    expect(await res.json()).toEqual({ status: 'success' });
  });

  it('refuses requests that arrive once draining has begun', async () => {
    await draining.begin(0);
    const res = await fetch(`${base}/fast`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: 'failed' });
    expect(entered.has('/fast')).toBe(false);
  });

  it('serves normally before draining', async () => {
    const res = await fetch(`${base}/fast`);
    expect(res.status).toBe(200);
    expect(res.headers.get('connection')).not.toBe('close');
  });
});
