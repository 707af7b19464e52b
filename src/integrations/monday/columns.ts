import { z } from 'zod';

/** A monday.com id: digits, given as a number or a string. */
export const mondayId = z.union([z.string().regex(/^\d+$/, 'a monday.com id is numeric'), z.number().int().positive()]);

/** Column values by column id, in each column type's JSON form ({"status":{"label":"Done"},"text":"hi"}); custom fields go here. */
export const columnValues = z
  .record(z.string().min(1), z.unknown())
  .describe('Column values by column id, in each column type\'s form ({"status":{"label":"Done"},"phone":{"phone":"+15550100","countryShortName":"US"}})');
