import { createHash } from 'node:crypto';
import type { Config } from '../core/config';
import type { Db } from '../db/pool';
import { DomainError } from '../core/errors';
import { RateLimitCounter } from '../db/rate-limit-counter';
import type { Logger } from '../telemetry/log';

/** Login attempts per client address and per email, counted across api processes like the api's own limits. */
export interface LoginLimits {
  /** Counts one attempt; throws login_rate_limited (with the seconds to wait) when either limit is already reached. */
  attempt(ip: string, email: string): void;
  /** Attempts refused so far by this process, by limit (login_address, login_email). */
  refusals(): Record<string, number>;
  close(): Promise<void>;
}

// Hashed: the shared counters table holds no addresses or emails.
const bucket = (kind: string, value: string) => `login-${kind}:${createHash('sha256').update(value).digest('base64url').slice(0, 22)}`;

/** Builds the login limits on a counter of their own (their window is longer than the api's). */
export function createLoginLimits(
  deps: { db: Db; logger: Logger },
  config: Pick<Config, 'LOGIN_RATE_LIMIT_PER_ADDRESS' | 'LOGIN_RATE_LIMIT_PER_EMAIL' | 'LOGIN_RATE_LIMIT_WINDOW_SECONDS' | 'RATE_LIMIT_SYNC_MS'>,
): LoginLimits {
  const seconds = config.LOGIN_RATE_LIMIT_WINDOW_SECONDS;
  const counter = new RateLimitCounter(deps.db, deps.logger, seconds * 1000, config.RATE_LIMIT_SYNC_MS);
  const refused: Record<string, number> = {};
  const check = (key: string, limit: number, per: string) => {
    if (limit === 0) return;
    const wait = counter.hit(key, limit);
    if (wait === undefined) return;
    const name = per === 'email' ? 'login_email' : 'login_address';
    refused[name] = (refused[name] ?? 0) + 1;
    throw new DomainError('login_rate_limited', `Too many login attempts: at most ${limit} per ${seconds} s per ${per}; retry in ${wait} s`, {
      retryAfterSeconds: wait,
    });
  };
  return {
    attempt(ip, email) {
      check(bucket('addr', ip), config.LOGIN_RATE_LIMIT_PER_ADDRESS, 'client address');
      check(bucket('email', email.toLowerCase()), config.LOGIN_RATE_LIMIT_PER_EMAIL, 'email');
    },
    refusals: () => ({ ...refused }),
    close: () => counter.close(),
  };
}
