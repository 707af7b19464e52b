import Router from '@koa/router';
import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import { exactRoutes } from '../../src/http/exact-routes';
import type { AppState } from '../../src/http/state';

// exactRoutes may answer a request only with the one layer the router itself would run for it; everything else must
// reach the router (here: after exactRoutes, as in the api), which marks its answers so the test can tell them apart.
describe('exactRoutes', () => {
  const answers = (name: string) => (ctx: Koa.ParameterizedContext<AppState>) => {
    ctx.body = { by: name, route: ctx._matchedRoute, params: ctx.params };
  };
  let base = '';
  let server: ReturnType<Koa['listen']>;

  beforeAll(async () => {
    const router = new Router<AppState>();
    router.get('/v1/plain', answers('plain'));
    router.post('/v1/plain', answers('plain-post'));
    router.get('/v1/items/:id', answers('item'));
    // Also matched by the parameter route above: the router runs both layers, so the table must not take it.
    router.get('/v1/items/list', answers('list'));
    router.get('/v1/twice', answers('twice-1'));
    router.get('/v1/twice', answers('twice-2'));
    const koa = new Koa<AppState>();
    koa.use(exactRoutes(router));
    koa.use(async (ctx, next) => {
      await next();
      ctx.set('x-by-router', '1');
    });
    koa.use(router.routes());
    server = koa.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const call = async (method: string, path: string) => {
    const res = await fetch(base + path, { method });
    return {
      status: res.status,
      router: res.headers.get('x-by-router') === '1',
      body: method === 'HEAD' ? undefined : await res.json().catch(() => undefined),
    };
  };

  it('answers a plain path written exactly as registered, per method, with the route and empty params', async () => {
    expect(await call('GET', '/v1/plain')).toEqual({ status: 200, router: false, body: { by: 'plain', route: '/v1/plain', params: {} } });
    expect(await call('POST', '/v1/plain')).toEqual({ status: 200, router: false, body: { by: 'plain-post', route: '/v1/plain', params: {} } });
  });

  it('leaves other spellings, parameter routes, shared paths, HEAD and unknown methods to the router', async () => {
    expect(await call('GET', '/v1/plain/')).toMatchObject({ status: 200, router: true, body: { by: 'plain' } });
    expect(await call('GET', '/V1/PLAIN')).toMatchObject({ status: 200, router: true, body: { by: 'plain' } });
    expect(await call('GET', '/v1/items/7')).toMatchObject({ status: 200, router: true, body: { by: 'item', params: { id: '7' } } });
    expect((await call('GET', '/v1/items/list')).router).toBe(true);
    expect((await call('GET', '/v1/twice')).router).toBe(true);
    expect(await call('HEAD', '/v1/plain')).toMatchObject({ status: 200, router: true });
    expect(await call('PUT', '/v1/plain')).toMatchObject({ status: 404, router: true });
    expect(await call('GET', '/v1/nothing')).toMatchObject({ status: 404, router: true });
  });
});
