import { createHash } from 'node:crypto';
import { z } from 'zod';

/** An audience (list) id. */
export const listId = z
  .string()
  .regex(/^[a-z0-9]{5,20}$/i, 'an audience id')
  .describe('Audience (list) id');

/** The member's path: Mailchimp addresses members by the MD5 of the lower-cased email. */
export function memberPath(list: string, email: string): string {
  return `/3.0/lists/${list}/members/${createHash('md5').update(email.toLowerCase()).digest('hex')}`;
}
