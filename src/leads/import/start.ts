import type { Client } from '@temporalio/client';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Db } from '../../db/pool';
import { DomainError } from '../../core/errors';
import { isUuid } from '../../core/ids';
import { leadImportWorkflowId } from '../../temporal/ids';
import { runSearchAttributes } from '../../temporal/search-attributes';
import { taskQueue } from '../../temporal/task-queues';
import { startWorkflow, WORKFLOW } from '../../temporal/workflow-types';
import { failImport, findImport, importErrors, storeUpload, type ImportRow } from './db/imports';
import { streamUpload, type ImportFormat } from './upload';

/** How many failed rows an import's answer lists. */
const IMPORT_ERRORS_SHOWN = 100;

/** What a new import is: the file as a stream, and its options. */
export interface ImportRequest {
  workspaceId: string;
  format: ImportFormat;
  onConflict: 'skip' | 'update';
  tag?: string;
  source: Readable;
}

/** What runs an import: the database, the workflow engine and the limits. */
export interface ImportDeps {
  db: Db;
  client: Client;
  taskQueuePrefix: string;
  limitBytes: number;
  chunkRows: number;
}

/**
 * Stores the upload (streamed into Postgres in one transaction: all or nothing) and starts its leadImport run
 * (id `lead-import:<id>`, on the journeys queue, searchable by WorkspaceId). Resolves once both happened, with the run's id.
 */
export async function startImport(deps: ImportDeps, req: ImportRequest): Promise<{ importId: string; digest: Buffer; workflowId: string }> {
  const importId = randomUUID();
  const workflowId = leadImportWorkflowId(importId);
  const { digest } = await storeUpload(
    deps.db,
    { id: importId, workspaceId: req.workspaceId, format: req.format, onConflict: req.onConflict, tag: req.tag },
    (copy) => streamUpload(req.source, copy, { importId, workspaceId: req.workspaceId, format: req.format, limitBytes: deps.limitBytes }),
  );
  try {
    await startWorkflow(deps.client, WORKFLOW.leadImport, {
      workflowId,
      taskQueue: taskQueue('journeys', deps.taskQueuePrefix),
      args: [{ importId, chunkRows: deps.chunkRows }],
      typedSearchAttributes: runSearchAttributes.leadImport({ workspaceId: req.workspaceId }),
    });
  } catch (err) {
    await failImport(deps.db, importId, 'The workflow engine was unavailable: upload the file again');
    throw new DomainError('workflow_unavailable', `The import could not be started (${(err as Error).message})`);
  }
  return { importId, digest, workflowId };
}

/** The workspace's import with its first failed rows; import_not_found for another workspace's or an unknown id. */
export async function importWithErrors(
  db: Db,
  workspaceId: string,
  id: string,
): Promise<ImportRow & { errors: { row: number; line: number; reason: string }[] }> {
  const row = isUuid(id) ? await findImport(db, workspaceId, id.toLowerCase()) : undefined;
  if (!row) throw new DomainError('import_not_found', 'Import not found');
  return { ...row, errors: await importErrors(db, row.id, IMPORT_ERRORS_SHOWN) };
}
