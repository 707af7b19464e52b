// The search attributes a workflow gives the runs it starts, behind one patch: runs recorded before it started their
// children with fewer (or none) and replay that way.
import type { SearchAttributePair } from '@temporalio/common';
import { patched } from '@temporalio/workflow';

/** The patch after which every child a workflow starts carries its type's full set (src/temporal/search-attribute-keys.ts). */
export const RUN_ATTRIBUTES_PATCH = 'run-search-attributes';

/** The child's start attributes: `next` in runs past the patch, `before` (what the run gave before it) in older ones. */
export function childAttributes(next: () => SearchAttributePair[], before?: SearchAttributePair[]): { typedSearchAttributes?: SearchAttributePair[] } {
  if (patched(RUN_ATTRIBUTES_PATCH)) return { typedSearchAttributes: next() };
  return before ? { typedSearchAttributes: before } : {};
}
