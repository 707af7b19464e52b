import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import { DOMAIN_ERROR_CODES, DomainError } from '../../src/core/errors';
import { ApiError } from '../../src/http/api-error';
import { errorHandler } from '../../src/http/middleware/errors';
import { knownErrorStatus, STATUS_OF_DOMAIN_CODE } from '../../src/http/error-status';
import { JourneyDefinitionError } from '../../src/journeys/schema';
import { splitRecord } from '../../src/leads/record';
import { createJwtAuthority } from '../../src/auth/jwt';
import { jwtUserResolver } from '../../src/auth/jwt-user';
import { loadConfig } from '../../src/core/config';
import type { Db } from '../../src/db/pool';

/** Serves one request through the error middleware with `thrown` as the failure: status, the two headers, body. */
async function answerTo(thrown: unknown) {
  const koa = new Koa();
  koa.use(errorHandler() as Koa.Middleware);
  koa.use(() => {
    throw thrown;
  });
  const server = koa.listen(0, '127.0.0.1');
  try {
    await new Promise((r) => server.once('listening', r));
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    return [res.status, res.headers.get('www-authenticate'), res.headers.get('retry-after'), await res.json()];
  } finally {
    server.close();
  }
}

describe('domain error codes and their HTTP statuses', () => {
  it('maps every domain code to a status in one table', () => {
    expect(Object.keys(STATUS_OF_DOMAIN_CODE).sort()).toEqual([...DOMAIN_ERROR_CODES].sort());
    expect(DOMAIN_ERROR_CODES.map((code) => knownErrorStatus(new DomainError(code, 'x')))).toEqual([
      400, 409, 404, 404, 503, 404, 404, 409, 404, 409, 403, 404, 409, 400, 400, 403, 403, 429, 409, 409, 409, 429, 409, 503, 404, 400, 413, 404, 409, 401, 503,
      429,
    ]);
  });

  it('domain code fails with codes, not statuses', () => {
    let thrown: unknown;
    try {
      splitRecord({ email: 'not-an-email' }, new Set());
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(DomainError);
    expect(thrown).not.toBeInstanceOf(ApiError);
    expect(thrown).toMatchObject({ code: 'invalid_fields', message: 'email: Invalid email address' });
    expect(new JourneyDefinitionError(['steps: required'])).toMatchObject({ code: 'invalid_journey' });
  });

  it('keeps ApiError statuses and library 4xx errors, and knows nothing else', () => {
    expect(knownErrorStatus(new ApiError(413, 'payload_too_large', 'big'))).toBe(413);
    expect(knownErrorStatus(Object.assign(new Error('bad'), { status: 405 }))).toBe(405);
    expect(knownErrorStatus(Object.assign(new Error('boom'), { status: 500 }))).toBeUndefined();
    expect(knownErrorStatus(new Error('boom'))).toBeUndefined();
    expect(knownErrorStatus(null)).toBeUndefined();
  });

  it('answers a domain 503 in the error shape with Retry-After', async () => {
    const koa = new Koa();
    koa.use(errorHandler() as Koa.Middleware);
    koa.use(() => {
      throw new DomainError('workflow_unavailable', 'Could not start the workflow, please retry');
    });
    const server = koa.listen(0, '127.0.0.1');
    try {
      await new Promise((r) => server.once('listening', r));
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      expect([res.status, res.headers.get('retry-after'), await res.json()]).toEqual([
        503,
        '1',
        { status: 'failed', message: 'Could not start the workflow, please retry' },
      ]);
    } finally {
      server.close();
    }
  });

  it('answers a domain error carrying retry-after seconds with its status and Retry-After', async () => {
    const koa = new Koa();
    koa.use(errorHandler() as Koa.Middleware);
    koa.use(() => {
      throw new DomainError('concurrent_call_cap', 'Concurrent call cap reached', { retryAfterSeconds: 30 });
    });
    const server = koa.listen(0, '127.0.0.1');
    try {
      await new Promise((r) => server.once('listening', r));
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      expect([res.status, res.headers.get('retry-after'), await res.json()]).toEqual([429, '30', { status: 'failed', message: 'Concurrent call cap reached' }]);
    } finally {
      server.close();
    }
  });

  it('request auth outside src/http fails with domain codes, and a domain 401 carries the bearer challenge', async () => {
    const config = loadConfig({ NODE_ENV: 'test', JWT_SECRET: 'x'.repeat(32) });
    // A malformed token is refused before any user lookup: the database is never reached.
    const userOf = jwtUserResolver({ db: {} as Db, jwt: createJwtAuthority(config) });
    const thrown = await userOf('not-a-jwt').catch((err: unknown) => err);
    expect(thrown).toBeInstanceOf(DomainError);
    expect(thrown).not.toBeInstanceOf(ApiError);
    expect(thrown).toMatchObject({ code: 'unauthorized' });
    expect(await answerTo(thrown)).toEqual([401, 'Bearer', null, { status: 'failed', message: (thrown as Error).message }]);
    expect(await answerTo(new DomainError('login_rate_limited', 'Too many login attempts', { retryAfterSeconds: 7 }))).toEqual([
      429,
      null,
      '7',
      { status: 'failed', message: 'Too many login attempts' },
    ]);
  });
});
