import { keysetPage } from '../../../http/keyset-page';
import { defineRoute, workspaceOf } from '../../../http/route';
import { nameRun } from '../../../http/run-link';
import { encodeCursor } from '../../../http/cursor';
import { payloadTooLarge, unsupportedMediaType } from '../../../http/api-error';
import type { ImportRow } from '../db/imports';
import { listImports } from '../db/imports';
import { importWithErrors, startImport } from '../start';
import { MAX_COLUMNS, MAX_HEADER_BYTES, MAX_RECORD_BYTES, type ImportFormat } from '../upload';
import { MAX_JSON_DEPTH } from '../../../core/json-depth';
import { ImportAccepted, ImportDetail, ImportListQuery, ImportPage, ImportQuery } from './schemas';

const TAG = 'Leads';
const EXAMPLE_ID = '3f2b8c4e-9a61-4d2f-b7e3-5c1a0d9e8f47';
const FORMATS: Record<string, ImportFormat> = { 'text/csv': 'csv', 'application/x-ndjson': 'ndjson' };

/** The largest file an import takes: the handler and an Idempotency-Key replay (reading the body through) both stop there. */
const importLimit = (config: { LEAD_IMPORT_MAX_BYTES: number }) => config.LEAD_IMPORT_MAX_BYTES;

/** POST /v1/leads/import: stores a CSV or NDJSON file of leads (streamed) and starts applying it. */
const importLeadsRoute = defineRoute({
  method: 'post',
  path: '/v1/leads/import',
  tag: TAG,
  summary: 'Import leads from a CSV or NDJSON file',
  description:
    'The body is the file, streamed into the database as it arrives: CSV (text/csv) with a header row naming the columns, or NDJSON ' +
    '(application/x-ndjson), one JSON object per line. Fields: phone (required), first_name, last_name, email, company, timezone, tags ' +
    "(a list, or a text separated by commas) and the workspace's custom fields by key; other columns are ignored, empty values count as not " +
    'supplied. Answers 202 once the file is stored; the records are then applied in the background (GET /v1/leads/imports/{id}). A record ' +
    'that cannot be a lead fails alone and is listed with its reason; a file that cannot be parsed (CSV quoting, a line that is not JSON) is ' +
    `a 400 naming the line (and column, never a value), and nothing is imported. Records and NDJSON lines up to ${MAX_RECORD_BYTES} bytes, ` +
    `nested at most ${MAX_JSON_DEPTH} levels deep; a CSV header up to ${MAX_HEADER_BYTES} bytes and ${MAX_COLUMNS} columns. Honours Idempotency-Key.`,
  auth: 'apiKey',
  idempotent: true,
  successStatus: 202,
  query: ImportQuery,
  rawBody: {
    contentTypes: {
      'text/csv': { schema: { type: 'string' }, example: 'phone,first_name,tags\n17145551234,Ann,"vip,spring"\n' },
      'application/x-ndjson': { schema: { type: 'string' }, example: '{"phone":"17145551234","first_name":"Ann","tags":["vip"]}\n' },
    },
    limitDescription: 'A file over the import size limit (LEAD_IMPORT_MAX_BYTES, 512 MiB by default)',
    limitBytes: importLimit,
  },
  example: { query: { tag: 'spring_list', on_conflict: 'skip' } },
  responses: {
    202: { description: 'The file is stored and its import started', schema: ImportAccepted },
    400: { description: 'An invalid option, or a file that cannot be parsed (the message names the line)' },
  },
  namesRun: {},
  async handler(input) {
    const ws = workspaceOf(input);
    const { ctx, deps } = input;
    const format = FORMATS[ctx.request.type];
    if (!format) throw unsupportedMediaType('Content-Type must be text/csv or application/x-ndjson');
    const limitBytes = importLimit(deps.config);
    if (Number(ctx.get('content-length') || 0) > limitBytes) throw payloadTooLarge(`The file exceeds ${limitBytes} bytes`);
    const { importId, digest, workflowId } = await startImport(
      {
        db: deps.db,
        client: deps.temporal.client,
        taskQueuePrefix: deps.config.TEMPORAL_TASK_QUEUE_PREFIX,
        limitBytes,
        chunkRows: deps.config.LEAD_IMPORT_CHUNK_ROWS,
      },
      { workspaceId: ws, format, onConflict: input.query.on_conflict ?? 'skip', tag: input.query.tag, source: ctx.req },
    ).catch((err: unknown) => {
      // Answered before the client finished sending (malformed, too large): the connection cannot carry another request.
      if (!ctx.req.complete) ctx.res.shouldKeepAlive = false;
      throw err;
    });
    ctx.state.bodyDigest = digest;
    nameRun(ctx, deps.config, workflowId);
    return { import_id: importId, status: 'queued' as const };
  },
});

const present = (row: ImportRow) => ({
  import_id: row.id,
  status: row.status,
  format: row.format,
  on_conflict: row.on_conflict,
  tag: row.tag,
  rows: { total: row.rows_total, read: row.rows_done, created: row.created, updated: row.updated, skipped: row.skipped, failed: row.failed },
  message: row.message,
  created_at: row.created_at.toISOString(),
  started_at: row.started_at?.toISOString() ?? null,
  finished_at: row.finished_at?.toISOString() ?? null,
});

/** GET /v1/leads/imports/{id}: an import's status, counts and first failed records. */
const getImportRoute = defineRoute({
  method: 'get',
  path: '/v1/leads/imports/:id',
  tag: TAG,
  summary: 'Get a lead import',
  description: "Status, record counts and the first 100 failed records (row number, line and reason). Another workspace's import is a 404.",
  auth: 'apiKey',
  example: { params: { id: EXAMPLE_ID } },
  responses: {
    200: { description: 'The import', schema: ImportDetail },
    404: { description: 'Import not found' },
  },
  async handler(input) {
    const row = await importWithErrors(input.deps.db, workspaceOf(input), input.params.id ?? '');
    return { ...present(row), errors: row.errors };
  },
});

/** GET /v1/leads/imports: the workspace's imports, newest first, a page at a time. */
const listImportsRoute = defineRoute({
  method: 'get',
  path: '/v1/leads/imports',
  tag: TAG,
  summary: 'List lead imports',
  description: 'Newest first, with status and counts; pass next_cursor as cursor for the next page.',
  auth: 'apiKey',
  query: ImportListQuery,
  example: { query: { limit: 20, cursor: encodeCursor({ at: '2026-06-01T12:00:00.000000Z', id: EXAMPLE_ID }) } },
  responses: { 200: { description: 'A page of imports', schema: ImportPage } },
  async handler(input) {
    const ws = workspaceOf(input);
    const { page, next_cursor } = await keysetPage(input.query, (limit, after) => listImports(input.deps.db, ws, limit, after));
    return { status: 'success' as const, imports: page.map(present), next_cursor };
  },
});

/** The lead import routes. */
export const leadImportRoutes = [importLeadsRoute, listImportsRoute, getImportRoute];
