import type { Config } from '../src/core/config';
import type { Db } from '../src/db/pool';
import type { Logger } from '../src/telemetry/log';
import { createCallEventActivities } from './calls/call-events';
import { createCallActivities } from './calls/calls';
import { createCallReclaimActivities } from './calls/reclaim';
import { createAutomationActivities } from './automation/automations';
import { createCampaignActivities } from './campaigns';
import { chatModelFromConfig } from '../src/llm/from-config';
import type { ChatModel } from '../src/llm/model';
import { createChatActivities } from './chat/chat';
import { createJourneyTriggerActivities } from './journeys/journey-triggers';
import { createJourneyActivities } from './journeys/journeys';
import { createLeadImportActivities } from './leads/import';
import { createConnectionEventActivities } from './connections/events';
import { createConnectionRefreshActivities } from './connections/refresh';

/** What activities are built from; the worker hands in real instances, tests too. */
export interface ActivityDeps {
  db: Db;
  logger: Logger;
  /** Settings activities read (e.g. SSRF_ALLOWLIST); unset means the secure defaults. */
  config?: Config;
  /** The chat model for ai_reply nodes; default: the one the configuration names. */
  chatModel?: ChatModel;
}

/** Every activity of every domain (activities/<domain>/), built from the worker's dependencies. */
export function createActivities(deps: ActivityDeps) {
  const ssrfAllowlist = deps.config?.SSRF_ALLOWLIST ?? [];
  return {
    ...createJourneyActivities({ db: deps.db, logger: deps.logger, ssrfAllowlist }),
    ...createCallEventActivities({ db: deps.db, logger: deps.logger, ssrfAllowlist }),
    ...createJourneyTriggerActivities({ db: deps.db, logger: deps.logger, ssrfAllowlist }),
    ...createCallActivities({ db: deps.db, logger: deps.logger, config: deps.config }),
    ...createCallReclaimActivities({ db: deps.db }),
    ...createCampaignActivities({ db: deps.db, logger: deps.logger, ssrfAllowlist }),
    ...createAutomationActivities({ db: deps.db, logger: deps.logger, config: deps.config }),
    ...createLeadImportActivities({ db: deps.db }),
    ...createConnectionEventActivities({ db: deps.db, logger: deps.logger, ssrfAllowlist }),
    ...createConnectionRefreshActivities({ db: deps.db, config: deps.config }),
    ...createChatActivities({ db: deps.db, logger: deps.logger, model: deps.chatModel ?? chatModelFromConfig(deps.config) }),
  };
}

export type Activities = ReturnType<typeof createActivities>;
