import type { Config } from '../src/config';
import type { Db } from '../src/db/pool';
import type { Logger } from '../src/log';
import { createAutomationActivities } from './automations';
import { createJourneyActivities } from './journeys';

/** What activities are built from; the worker hands in real instances, tests too. */
export interface ActivityDeps {
  db: Db;
  logger: Logger;
  /** Settings activities read (e.g. SSRF_ALLOWLIST); unset means the secure defaults. */
  config?: Config;
}

/** Activities: thin wrappers that call src/ (db, telephony, integrations). */
export function createActivities(deps: ActivityDeps) {
  return {
    ...createJourneyActivities({ db: deps.db, logger: deps.logger, ssrfAllowlist: deps.config?.SSRF_ALLOWLIST ?? [] }),
    ...createAutomationActivities({ db: deps.db, logger: deps.logger, config: deps.config }),
  };
}

export type Activities = ReturnType<typeof createActivities>;
