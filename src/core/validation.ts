import type { z } from 'zod';

/**
 * One problem in the wording every validation answer shares (routes, automation params, chat frames, imports): a missing
 * value is `required`; zod's "Invalid input: " preamble is dropped (`expected string, received number`); a bad record key
 * carries the rule it broke.
 */
export function issueText(issue: z.core.$ZodIssue): string {
  if (issue.code === 'invalid_type' && /received undefined/.test(issue.message)) return 'required';
  const message = issue.code === 'invalid_key' ? (issue.issues[0]?.message ?? issue.message) : issue.message;
  return message.replace(/^Invalid input: /, '');
}

/** Each issue as `path: problem` (`root` where the issue has no path). */
export const issueLines = (issues: z.core.$ZodIssue[], root: string, path = (p: PropertyKey[]) => p.join('.')): string[] =>
  issues.map((issue) => `${issue.path.length ? path(issue.path) : root}: ${issueText(issue)}`);

/** Turns zod issues into one readable line: `phone: required; tag: letters, digits and underscores only`. */
export function describeIssues(issues: z.core.$ZodIssue[], root: string): string {
  return issueLines(issues.slice(0, 5), root).join('; ');
}
