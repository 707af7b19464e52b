import type { z } from 'zod';
import { badRequest } from './api-error';
import { describeIssues } from '../core/validation';

export { describeIssues };

/** Parses value with schema or throws a 400 naming the fields at fault. */
export function parseOrThrow<T>(schema: z.ZodType<T>, value: unknown, root: string): T {
  const result = schema.safeParse(value);
  if (!result.success) throw badRequest(describeIssues(result.error.issues, root));
  return result.data;
}
