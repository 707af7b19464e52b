import { z } from 'zod';
import { documentAs, EMAIL_JSON, NO_NUL_PATTERN, PHONE_PATTERN } from '../../core/documented';
import { Tag } from '../rules';
import { Lead } from './lead-schemas';
import { NextCursor, PageCursor, PageLimit } from '../../http/page-schemas';

const MAX_REPEATS = 20;
/** A parameter that may be repeated (`tag=a&tag=b`): one value arrives as a string, several as an array. */
const repeatable = <T extends z.ZodType>(item: T, itemJson: Record<string, unknown>, description: string) =>
  documentAs(
    z
      .preprocess((v) => (typeof v === 'string' ? [v] : v), z.array(item).min(1).max(MAX_REPEATS))
      .optional()
      .describe(description),
    { type: 'array', items: itemJson, minItems: 1, maxItems: MAX_REPEATS, description },
  );

/** Query of GET /v1/leads. */
export const ListLeadsQuery = z.object({
  phone: repeatable(
    z.string().min(1).max(64),
    { type: 'string', pattern: PHONE_PATTERN, examples: ['17145551234'] },
    'Phone in any common format, normalised as on lead/get; repeat it to match any of several phones',
  ),
  email: documentAs(z.email().max(320).optional().describe('Email address, matched case-insensitively'), { ...EMAIL_JSON, maxLength: 320 }),
  tag: repeatable(Tag, { type: 'string', pattern: '^[A-Za-z0-9_]{1,64}$' }, 'Tag; repeat it for several tags (see tag_match)'),
  tag_match: z.enum(['all', 'any']).default('all').describe('With several tags: leads carrying all of them (default) or any of them'),
  updated_since: z.iso.datetime({ offset: true }).optional().describe('Only leads updated at or after this instant (ISO 8601)'),
  q: documentAs(
    z
      .string()
      .min(1)
      .max(100)
      .refine((s) => !s.includes('\u0000'), 'must not contain NUL characters')
      .optional()
      .describe('Name prefix, case-insensitive: matches the start of "first last" or of the last name'),
    {
      type: 'string',
      minLength: 1,
      maxLength: 100,
      pattern: NO_NUL_PATTERN,
    },
  ),
  limit: PageLimit.optional(),
  cursor: PageCursor.optional(),
});

/** Body of GET /v1/leads. */
export const LeadPage = z.object({
  status: z.literal('success'),
  leads: z.array(Lead).describe('Newest first (by creation)'),
  next_cursor: NextCursor,
});
