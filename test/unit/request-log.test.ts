import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { Writable } from 'node:stream';
import { requestContext, type RequestLog } from '../../src/http/middleware/request-context';
import type { AppState } from '../../src/http/state';

/** Serves one request per path through requestContext and returns the level of each request line, by status. */
async function requestLevels(mode: RequestLog): Promise<Record<number, number>> {
  const lines: { level: number; status: number; msg: string }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()) as (typeof lines)[number]);
      done();
    },
  });
  const logger = pino({ level: 'debug' }, sink);
  const koa = new Koa<AppState>();
  koa.use(requestContext(logger, mode));
  koa.use((ctx) => {
    ctx.status = Number(ctx.path.slice(1));
    ctx.body = { status: ctx.status < 400 ? 'success' : 'failed', message: 'x' };
  });
  const server = koa.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    for (const status of [200, 201, 404, 503]) await (await fetch(`${base}/${status}`)).text();
  } finally {
    server.closeAllConnections();
    server.close();
  }
  return Object.fromEntries(lines.filter((l) => l.msg === 'request').map((l) => [l.status, l.level]));
}

describe('request lines', () => {
  it('are all at info by default (production logs stay complete)', async () => {
    expect(await requestLevels('all')).toEqual({ 200: 30, 201: 30, 404: 30, 503: 30 });
  });

  it('keep only failures at info for the dev stack; successes go to debug', async () => {
    expect(await requestLevels('failures')).toEqual({ 200: 20, 201: 20, 404: 30, 503: 30 });
  });
});
