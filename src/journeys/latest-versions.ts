import { LRUCache } from 'lru-cache';
import { Client } from 'pg';
import type { Logger } from 'pino';
import type { Queryable } from '../db/pool';
import { latestJourneyVersion } from '../db/repos/journeys';

const CHANNEL = 'journey_versions_changed';

/**
 * Each journey's newest version number, so an enrollment costs no version query while its journey is unchanged.
 * A new version anywhere (import, CLI, SQL) reaches every api process at once through NOTIFY journey_versions_changed
 * (a trigger, migration 005). Entries are cached only while that listener is connected, and all are dropped when
 * it is lost, so a missed notification can never serve an old version; the TTL is a second line of defence.
 */
export class LatestJourneyVersions {
  private readonly cache = new LRUCache<string, number>({ max: 10_000, ttl: 60_000 });
  private listener?: Client;
  private listening = false;
  private closed = false;
  /** Bumped by every notification: a lookup that raced one does not store what it read. */
  private epoch = 0;

  constructor(private readonly log: Logger) {}

  /** The newest version of the workspace's journey, or undefined when it has none (or is another workspace's). */
  async get(db: Queryable, workspaceId: string, journeyId: string): Promise<number | undefined> {
    const key = `${workspaceId}:${journeyId}`;
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    const epoch = this.epoch;
    const version = await latestJourneyVersion(db, workspaceId, journeyId);
    if (version !== undefined && this.listening && epoch === this.epoch) this.cache.set(key, version);
    return version;
  }

  /** Listens for new versions; reconnects after a database restart. */
  async listen(connectionString: string): Promise<void> {
    if (this.closed) return;
    const client = new Client({ connectionString });
    client.on('notification', () => this.forget());
    client.on('error', (err) => {
      this.log.warn({ err: err.message }, 'journey version listener lost its connection');
      this.listening = false;
      this.forget();
      client.end().catch(() => undefined);
      if (!this.closed) setTimeout(() => void this.listen(connectionString).catch(() => undefined), 1000).unref();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      this.listener = client;
      this.listening = true;
    } catch (err) {
      client.emit('error', err as Error);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listening = false;
    this.forget();
    await this.listener?.end().catch(() => undefined);
  }

  // Versions are few and imports rare: dropping every entry is simpler than matching the payload to workspaces.
  private forget(): void {
    this.epoch += 1;
    this.cache.clear();
  }
}
