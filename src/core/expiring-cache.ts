import { LRUCache } from 'lru-cache';

/**
 * An LRU cache whose entries expire after ttlMs. lru-cache reads the clock at most once per ttlResolution and arms a
 * timer each time it does; its default of 1 ms costs a timer per request on a busy api. A tenth of the TTL (at most
 * 1 s) keeps expiry within 10% of its TTL for a fraction of that.
 */
export function expiringCache<K extends NonNullable<unknown>, V extends NonNullable<unknown>>(opts: { max: number; ttlMs: number }): LRUCache<K, V> {
  return new LRUCache<K, V>({ max: opts.max, ttl: opts.ttlMs, ttlResolution: Math.min(1000, Math.max(1, Math.floor(opts.ttlMs / 10))) });
}
