import { temporal } from '@temporalio/proto';
import type { Connection } from '@temporalio/client';
import { runSearchAttributes, SA } from './search-attribute-keys';

// The start attributes of each workflow type live beside the keys, where workflow code can import them too.
export { runSearchAttributes, SA };

/** Registers any missing custom search attribute; safe to run at every start-up and from several processes. */
export async function ensureSearchAttributes(connection: Connection, namespace: string): Promise<string[]> {
  const existing = await connection.operatorService.listSearchAttributes({ namespace });
  const have = new Set(Object.keys(existing.customAttributes ?? {}));
  const missing = Object.values(SA).filter((k) => !have.has(k.name));
  if (missing.length === 0) return [];
  const searchAttributes: Record<string, temporal.api.enums.v1.IndexedValueType> = {};
  for (const k of missing) searchAttributes[k.name] = temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;
  try {
    await connection.operatorService.addSearchAttributes({ namespace, searchAttributes });
  } catch (err) {
    // Another process registered them between our list and add.
    if (!/already exists/i.test((err as Error).message)) throw err;
  }
  return missing.map((k) => k.name);
}

/**
 * The start-up registration of the api and the worker: only when TEMPORAL_REGISTER_SEARCH_ATTRIBUTES is on. A
 * production namespace (or Temporal Cloud) gives them no operator rights; its setup job registers the attributes.
 */
export async function registerSearchAttributesAtStart(
  config: { TEMPORAL_REGISTER_SEARCH_ATTRIBUTES: boolean; TEMPORAL_NAMESPACE: string },
  connection: () => Promise<Connection>,
): Promise<string[]> {
  if (!config.TEMPORAL_REGISTER_SEARCH_ATTRIBUTES) return [];
  return ensureSearchAttributes(await connection(), config.TEMPORAL_NAMESPACE);
}
