// The search attributes a workflow gives the runs it starts, behind one patch: runs recorded before it started their
// children with fewer (or none) and replay that way.
import type { SearchAttributePair } from '@temporalio/common';
import { deprecatePatch, patched } from '@temporalio/workflow';

/** The patch after which every child a workflow starts carries its type's full set (src/temporal/search-attribute-keys.ts). */
const RUN_ATTRIBUTES_PATCH = 'run-search-attributes';

/**
 * The child's start attributes: `next` in runs past the patch, `before` (what the run gave before it) in older ones.
 * Only outboundCall (workflows/calls) still has the patch live; the other workflow types use childAttributesOf.
 */
export function childAttributes(next: () => SearchAttributePair[], before?: SearchAttributePair[]): { typedSearchAttributes?: SearchAttributePair[] } {
  if (patched(RUN_ATTRIBUTES_PATCH)) return { typedSearchAttributes: next() };
  return before ? { typedSearchAttributes: before } : {};
}

/**
 * The child's start attributes in workflow types where the patch is deprecated (docs/workflow-versioning.md): always
 * the full set, the marker written where childAttributes wrote it.
 */
export function childAttributesOf(next: () => SearchAttributePair[]): { typedSearchAttributes: SearchAttributePair[] } {
  deprecatePatch(RUN_ATTRIBUTES_PATCH);
  return { typedSearchAttributes: next() };
}
