import { z } from 'zod';
import { documentAs } from '../core/documented';
import { CURSOR_PATTERN } from './cursor';

const LIMIT_RULE = 'must be an integer from 1 to 200';
/** Query parameter `limit` of a listing: 1–200, default 50 (the handler applies the default). */
export const PageLimit = documentAs(
  z
    .string()
    .regex(/^[0-9]{1,3}$/, LIMIT_RULE)
    .transform(Number)
    .pipe(z.int().min(1, LIMIT_RULE).max(200, LIMIT_RULE)),
  { type: 'integer', minimum: 1, maximum: 200, default: 50, description: 'Page size, 1–200 (default 50)' },
);
export const DEFAULT_PAGE_LIMIT = 50;

/** Query parameter `cursor` of a listing. */
export const PageCursor = z.string().regex(CURSOR_PATTERN, 'invalid cursor').describe('next_cursor of the previous page');

/** `next_cursor` of a listing's answer. */
export const NextCursor = z.string().nullable().describe('Pass as cursor for the next page; null on the last page');
