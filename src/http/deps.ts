import type { Client, Connection } from '@temporalio/client';
import type { Logger } from 'pino';
import type { JwtAuthority } from '../auth/jwt';
import type { LoginLimits } from '../auth/login-limits';
import type { Config } from '../core/config';
import type { Db } from '../db/pool';
import type { LatestJourneyVersions } from '../journeys/latest-versions';

/** What the api's routes are built from (the api's composition root hands them in; tests hand in real instances). */
export interface AppDeps {
  config: Config;
  db: Db;
  temporal: { connection: Connection; client: Client };
  logger: Logger;
  /** Cached latest journey versions (createApp provides it; without it every enrollment reads the version). */
  journeyVersions?: LatestJourneyVersions;
  /**
   * A client on the NativeConnection of a worker running in this process (`npm start`, bench), or a function giving it
   * while that worker runs: automation runs start eagerly on that worker (requestEagerStart), skipping the server's
   * first task dispatch.
   */
  eagerClient?: Client | (() => Client | undefined);
  /** User JWTs and login limits (createApp provides them). */
  auth?: { jwt: JwtAuthority; loginLimits: LoginLimits };
}
