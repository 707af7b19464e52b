import { LRUCache } from 'lru-cache';
import { perHandle, type Queryable } from '../db/pool';
import { workspaceDefaultRegion } from '../workspaces/db/workspaces';
import { expiringCache } from '../core/expiring-cache';

const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;
const cacheOf = perHandle((): LRUCache<string, string> => expiringCache({ max: MAX_ENTRIES, ttlMs: TTL_MS }));

/**
 * The workspace's default phone region (ISO 3166, e.g. US), cached per database handle for a minute so a phone
 * lookup costs one query. Nothing in the api changes a region; a CLI change shows within the TTL.
 */
export function workspaceRegion(db: Queryable, workspaceId: string): string | Promise<string> {
  const cache = cacheOf(db);
  // A hit answers synchronously (await works on either): one promise less per lookup.
  return cache.get(workspaceId) ?? load(db, workspaceId, cache);
}

async function load(db: Queryable, workspaceId: string, cache: LRUCache<string, string>): Promise<string> {
  const region = (await workspaceDefaultRegion(db, workspaceId)) ?? 'US';
  cache.set(workspaceId, region);
  return region;
}
