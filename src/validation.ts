import type { z } from 'zod';

/** Turns zod issues into one readable line: `phone: required; tag: letters, digits and underscores only`. */
export function describeIssues(issues: z.core.$ZodIssue[], root: string): string {
  return issues
    .slice(0, 5)
    .map((issue) => {
      const where = issue.path.length ? issue.path.join('.') : root;
      const missing = issue.code === 'invalid_type' && /received undefined/.test(issue.message);
      return `${where}: ${missing ? 'required' : issue.message}`;
    })
    .join('; ');
}
