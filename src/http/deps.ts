import type { Client, Connection } from '@temporalio/client';
import type { Logger } from 'pino';
import type { Config } from '../core/config';
import type { Db } from '../db/pool';

/**
 * What the api's routes are built from (the composition root, src/api, hands them in; tests hand in real instances).
 * The toolkit names only what every process has; a domain whose routes need a service of its own adds it to this
 * interface by module augmentation, beside the service (as Koa's DefaultState is extended): see
 * src/journeys/latest-versions.ts and src/auth/http/app-types.ts.
 */
export interface AppDeps {
  config: Config;
  db: Db;
  temporal: { connection: Connection; client: Client };
  logger: Logger;
  /**
   * A client on the NativeConnection of a worker running in this process (`npm start`, bench), or a function giving it
   * while that worker runs: automation runs start eagerly on that worker (requestEagerStart), skipping the server's
   * first task dispatch.
   */
  eagerClient?: Client | (() => Client | undefined);
}
