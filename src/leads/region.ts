import type { Queryable } from '../db/pool';

const TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;
const caches = new WeakMap<Queryable, Map<string, { region: string; expires: number }>>();

/**
 * The workspace's default phone region (ISO 3166, e.g. US), cached per database handle for a minute so a phone
 * lookup costs one query. Nothing in the api changes a region; a CLI change shows within the TTL.
 */
export function workspaceRegion(db: Queryable, workspaceId: string): string | Promise<string> {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  const hit = cache.get(workspaceId);
  // A hit answers synchronously (await works on either): one promise less per lookup.
  if (hit && hit.expires > Date.now()) return hit.region;
  return load(db, workspaceId, cache);
}

async function load(db: Queryable, workspaceId: string, cache: Map<string, { region: string; expires: number }>): Promise<string> {
  const row = await db.one<{ default_region: string }>('SELECT default_region FROM workspaces WHERE id = $1', [workspaceId]);
  const region = row?.default_region ?? 'US';
  if (cache.size >= MAX_ENTRIES) cache.clear();
  cache.set(workspaceId, { region, expires: Date.now() + TTL_MS });
  return region;
}
