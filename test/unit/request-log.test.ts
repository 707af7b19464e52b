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

  it('carry the reason of a failure with its status, without an echoed phone or email', async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({ write: (chunk: Buffer, _e, done) => (lines.push(JSON.parse(chunk.toString())), done()) });
    const koa = new Koa<AppState>();
    koa.use(requestContext(pino({ level: 'info' }, sink), 'failures'));
    koa.use((ctx) => {
      const bodies: Record<string, unknown> = {
        '/bad': { status: 'failed', message: 'numbers: +1 (714) 555-0101 is not a valid phone number; email: ann@example.com is taken' },
        '/automation': { success: false, error: 'Unauthorized: invalid or revoked key in x-key' },
        '/ok': { status: 'success' },
      };
      ctx.status = ctx.path === '/ok' ? 200 : ctx.path === '/bad' ? 400 : 401;
      ctx.body = bodies[ctx.path];
    });
    const server = koa.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      for (const p of ['/bad', '/automation', '/ok']) await (await fetch(`${base}${p}`)).text();
    } finally {
      server.closeAllConnections();
      server.close();
    }
    expect(lines.map((l) => [l.status, l.reason])).toEqual([
      [400, 'numbers: [redacted] is not a valid phone number; email: [redacted] is taken'],
      [401, 'Unauthorized: invalid or revoked key in x-key'],
    ]);
  });
});
