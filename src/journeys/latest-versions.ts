import type { Db, Queryable } from '../db/pool';
import type { Listener } from '../db/listen';
import { latestJourneyVersion } from './db/journeys';
import { expiringCache } from '../core/expiring-cache';

const CHANNEL = 'journey_versions_changed';

/**
 * Each journey's newest version number, so an enrollment costs no version query while its journey is unchanged.
 * A new version anywhere (import, CLI, SQL) reaches every api process at once through NOTIFY journey_versions_changed
 * (a trigger, migration 005). Entries are cached only while that listener is connected, and all are dropped when
 * it is lost or comes back, so a missed notification can never serve an old version; the TTL is a second line of defence.
 */
export class LatestJourneyVersions {
  private readonly cache = expiringCache<string, number>({ max: 10_000, ttlMs: 60_000 });
  private listener?: Listener;
  private closed = false;
  /** Bumped by every notification: a lookup that raced one does not store what it read. */
  private epoch = 0;

  /** The newest version of the workspace's journey, or undefined when it has none (or is another workspace's). */
  async get(db: Queryable, workspaceId: string, journeyId: string): Promise<number | undefined> {
    const key = `${workspaceId}:${journeyId}`;
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    const epoch = this.epoch;
    const version = await latestJourneyVersion(db, workspaceId, journeyId);
    if (version !== undefined && this.listener?.connected && epoch === this.epoch) this.cache.set(key, version);
    return version;
  }

  /** Listens for new versions through db.listen (which reconnects after a database restart). */
  async listen(db: Pick<Db, 'listen'>): Promise<void> {
    if (this.closed || this.listener) return;
    this.listener = await db.listen(CHANNEL, () => this.forget());
  }

  async close(): Promise<void> {
    this.closed = true;
    this.forget();
    await this.listener?.close();
  }

  // Versions are few and imports rare: dropping every entry is simpler than matching the payload to workspaces.
  private forget(): void {
    this.epoch += 1;
    this.cache.clear();
  }
}
