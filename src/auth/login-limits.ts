import { createHash } from 'node:crypto';
import type { Config } from '../core/config';
import type { Db } from '../db/pool';
import { DomainError } from '../core/errors';
import { RateLimitCounter } from '../db/rate-limit-counter';
import type { Logger } from '../telemetry/log';

/**
 * Login limits, counted across api processes like the api's own limits: attempts per client address, and failed
 * attempts per (email, client address) and, with a higher ceiling, per email from all addresses. So one address
 * guessing a user's password is stopped without locking the user out from their own address.
 */
export interface LoginLimits {
  /** Before an attempt: throws login_rate_limited (with the seconds to wait) when a limit is already reached; counts the attempt per address. */
  attempt(ip: string, email: string): void;
  /** After a failed attempt: counts it per (email, address) and per email. */
  failed(ip: string, email: string): void;
  /** Attempts refused so far by this process, by limit (login_address, login_email_address, login_email). */
  refusals(): Record<string, number>;
  close(): Promise<void>;
}

// Hashed: the shared counters table holds no addresses or emails.
const bucket = (kind: string, ...values: string[]) => `login-${kind}:${createHash('sha256').update(values.join('\n')).digest('base64url').slice(0, 22)}`;

/** Builds the login limits on a counter of their own (their window is longer than the api's). */
export function createLoginLimits(
  deps: { db: Db; logger: Logger },
  config: Pick<
    Config,
    | 'LOGIN_RATE_LIMIT_PER_ADDRESS'
    | 'LOGIN_RATE_LIMIT_PER_EMAIL'
    | 'LOGIN_RATE_LIMIT_PER_EMAIL_ALL_ADDRESSES'
    | 'LOGIN_RATE_LIMIT_WINDOW_SECONDS'
    | 'RATE_LIMIT_SYNC_MS'
  >,
): LoginLimits {
  const seconds = config.LOGIN_RATE_LIMIT_WINDOW_SECONDS;
  const counter = new RateLimitCounter(deps.db, deps.logger, seconds * 1000, config.RATE_LIMIT_SYNC_MS);
  const refused: Record<string, number> = {};
  const buckets = (ip: string, email: string) => {
    const e = email.toLowerCase();
    return [
      {
        key: bucket('email-addr', e, ip),
        limit: config.LOGIN_RATE_LIMIT_PER_EMAIL,
        name: 'login_email_address',
        per: 'failed attempts per email from one client address',
      },
      {
        key: bucket('email', e),
        limit: config.LOGIN_RATE_LIMIT_PER_EMAIL_ALL_ADDRESSES,
        name: 'login_email',
        per: 'failed attempts per email from all addresses',
      },
    ];
  };
  const refuse = (wait: number | undefined, limit: number, name: string, per: string) => {
    if (wait === undefined) return;
    refused[name] = (refused[name] ?? 0) + 1;
    throw new DomainError('login_rate_limited', `Too many login attempts: at most ${limit} ${per} per ${seconds} s; retry in ${wait} s`, {
      retryAfterSeconds: wait,
    });
  };
  return {
    attempt(ip, email) {
      const perAddress = config.LOGIN_RATE_LIMIT_PER_ADDRESS;
      if (perAddress !== 0) refuse(counter.hit(bucket('addr', ip), perAddress), perAddress, 'login_address', 'attempts per client address');
      for (const b of buckets(ip, email)) if (b.limit !== 0) refuse(counter.peek(b.key, b.limit), b.limit, b.name, b.per);
    },
    failed(ip, email) {
      for (const b of buckets(ip, email)) if (b.limit !== 0) counter.hit(b.key, b.limit);
    },
    refusals: () => ({ ...refused }),
    close: () => counter.close(),
  };
}
