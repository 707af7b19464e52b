import type { z } from 'zod';
import { badRequest } from './api-error';
import { describeIssues } from '../core/validation';
import { storableText, UNSTORABLE_RULE } from '../core/storable';

export { describeIssues };

/**
 * Parses value with schema or throws a 400 naming the fields at fault; then refuses text Postgres cannot store in what
 * the route takes (fields the schema drops are ignored, as any unknown field is).
 */
export function parseOrThrow<T>(schema: z.ZodType<T>, value: unknown, root: string): T {
  const result = schema.safeParse(value);
  if (!result.success) throw badRequest(describeIssues(result.error.issues, root));
  assertStorableText(result.data, root);
  return result.data;
}

/**
 * Throws a 400 naming the first string (value or key) of a request's query, body or path parameters that Postgres
 * cannot store as sent: a NUL fails the statement that writes it (after the work before it is done: a campaign's run
 * started), jsonb refuses an unpaired surrogate and text would hold U+FFFD instead. Every route's
 * text goes through this one rule.
 */
export function assertStorableText(value: unknown, root: string): void {
  const at = firstUnstorable(value, []);
  // Named as describeIssues names a field (`name`, `audience.tag`), the root for the value itself.
  if (at) throw badRequest(`${at.length ? at.join('.') : root}: ${UNSTORABLE_RULE}`);
}

/** The path of the first string (value or key) Postgres cannot store; a bad key is named by its parent. */
function firstUnstorable(value: unknown, path: PropertyKey[]): PropertyKey[] | undefined {
  if (typeof value === 'string') return storableText(value) ? undefined : path;
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = firstUnstorable(value[i], [...path, i]);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    // Quoting the key would carry the bad text along.
    if (!storableText(key)) return [...path, '(a key)'];
    const found = firstUnstorable(item, [...path, key]);
    if (found) return found;
  }
  return undefined;
}
