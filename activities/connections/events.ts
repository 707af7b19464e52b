import { connectionEventBody, type ConnectionEventInput } from '../../src/connections/events';
import { findConnectionById } from '../../src/connections/db/health';
import { presentConnection } from '../../src/connections/store';
import type { Db } from '../../src/db/pool';
import { publishToSubscribers } from '../webhooks/subscribers';
import type { Logger } from '../../src/telemetry/log';
import { ssrfAllowlist } from '../../src/net/ssrf';

/** The failure a publish raises while some subscriber can still take the event later (retried with backoff). */
const CONNECTION_EVENT_UNDELIVERED = 'connection_event_undelivered';

/** Connection event delivery to the workspace's subscribers (the call events' subscriptions and ledger). */
export function createConnectionEventActivities(deps: { db: Db; logger: Logger; ssrfAllowlist: string[] }) {
  const { db } = deps;
  const ssrf = { allow: ssrfAllowlist(deps.ssrfAllowlist) };
  return {
    /** POSTs the event, signed like every webhook, to each subscriber that has not settled it; throws while any can still take it. */
    async publishConnectionEvent(e: ConnectionEventInput): Promise<{ delivered: number; refused: number }> {
      return publishToSubscribers(
        { ...deps, ssrf },
        e,
        async () => {
          const row = await findConnectionById(db, e.workspaceId, e.connectionId);
          return row && connectionEventBody(e, presentConnection(row)); // deleted meanwhile: nothing to tell
        },
        { failureType: CONNECTION_EVENT_UNDELIVERED, logFields: { connectionId: e.connectionId } },
      );
    },
  };
}

export type ConnectionEventActivities = ReturnType<typeof createConnectionEventActivities>;
