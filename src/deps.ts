import type { Client, Connection } from '@temporalio/client';
import type { Logger } from 'pino';
import type { Config } from './config';
import type { Db } from './db/pool';

/** What the api's routes are built from; tests hand in real instances. */
export interface AppDeps {
  config: Config;
  db: Db;
  temporal: { connection: Connection; client: Client };
  logger: Logger;
}
