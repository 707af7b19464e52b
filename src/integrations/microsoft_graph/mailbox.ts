import { z } from 'zod';

/** The optional `mailbox` param: a user id or UPN whose mailbox is used (delegated or application access), else `me`. */
export const mailbox = z
  .string()
  .min(1)
  .max(320)
  .regex(/^[^/?#\s]+$/)
  .optional()
  .describe('User id or principal name whose mailbox to use; defaults to the signed-in user (me)');

/** The Graph path prefix of a mailbox. */
export function mailboxPath(user: string | undefined): string {
  return user ? `/users/${encodeURIComponent(user)}` : '/me';
}

/** Graph's recipient shape from plain addresses. */
export function recipients(addresses: string[] | undefined): Array<{ emailAddress: { address: string } }> | undefined {
  return addresses?.map((address) => ({ emailAddress: { address } }));
}
