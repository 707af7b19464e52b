import type { Db } from '../src/db/pool';
import type { Logger } from '../src/log';

/** What activities are built from; the worker hands in real instances, tests too. */
export interface ActivityDeps {
  db: Db;
  logger: Logger;
}

/** Activities: thin wrappers that call src/ (db, telephony, integrations). */
export function createActivities(deps: ActivityDeps) {
  void deps;
  return {};
}

export type Activities = ReturnType<typeof createActivities>;
