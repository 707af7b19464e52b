import { z } from 'zod';
import { NextCursor, PageCursor, PageLimit } from '../../../http/page-schemas';
import { Tag } from '../../rules';

/** POST /v1/leads/import's options, in the query string (the body is the file). */
export const ImportQuery = z.object({
  tag: Tag.optional().describe('A tag added to every lead the import creates or updates'),
  on_conflict: z
    .enum(['skip', 'update'])
    .optional()
    .describe('A phone already on file: skip the row (default), or update the lead with the fields the row supplies'),
});

export const ImportListQuery = z.object({ limit: PageLimit.optional(), cursor: PageCursor.optional() });

const ImportStatus = z.enum(['queued', 'running', 'completed', 'failed']).describe('queued → running → completed, or failed (see message)');

export const ImportAccepted = z.object({ import_id: z.uuid(), status: ImportStatus });

const ImportCounts = z
  .object({
    total: z.int().describe('Records in the file'),
    read: z.int().describe('Records applied so far'),
    created: z.int(),
    updated: z.int(),
    skipped: z.int().describe('Phones already on file, with on_conflict=skip'),
    failed: z.int().describe('Records that could not be a lead (see errors)'),
  })
  .describe('Record counts');

const ImportSummary = z.object({
  import_id: z.uuid(),
  status: ImportStatus,
  format: z.enum(['csv', 'ndjson']),
  on_conflict: z.enum(['skip', 'update']),
  tag: z.string().nullable(),
  rows: ImportCounts,
  message: z.string().nullable().describe('Why a failed import stopped'),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});

export const ImportDetail = ImportSummary.extend({
  errors: z
    .array(
      z.object({
        row: z.int().describe('Record number, from 1 (the CSV header is not a record)'),
        line: z.int().describe('File line the record ends on'),
        reason: z.string(),
      }),
    )
    .describe('The first 100 failed records, in file order'),
});

export const ImportPage = z.object({ status: z.literal('success'), imports: z.array(ImportSummary), next_cursor: NextCursor });
