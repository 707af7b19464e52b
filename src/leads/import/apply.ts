import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/pool';
import { DomainError } from '../../core/errors';
import { customFieldKeys, updateLead } from '../db/leads';
import { workspaceRegion } from '../region';
import { addTags, finishChunk, insertLeads, leadIdsByPhone, lockImport, stagedRows, type ImportItem, type StagedRow } from './db/chunk';
import { readRow, type ImportLead, type RowContext } from './rows';
import type { ChunkResult } from './types';

export type { ChunkResult };

type Ready = { row: StagedRow; lead: ImportLead };

/**
 * Applies the import's next `chunkRows` records in one transaction that also records their items and the progress:
 * after a crash the chunk either happened entirely or not at all, and the next call goes on from the progress (so a
 * retried call never applies a row twice). Rows of one phone apply in row order: the first creates the lead, the
 * others find it on file.
 */
export async function applyNextChunk(db: Db, importId: string, chunkRows: number): Promise<ChunkResult> {
  return db.tx(async (q) => {
    const imp = await lockImport(q, importId);
    if (!imp) return { done: true, status: 'missing', rowsDone: 0, rowsTotal: 0 };
    const state = (status: string, rowsDone: number) => ({ done: status === 'completed' || status === 'failed', status, rowsDone, rowsTotal: imp.rows_total });
    if (imp.status === 'completed' || imp.status === 'failed') return state(imp.status, imp.rows_done);
    const rows = await stagedRows(q, importId, imp.rows_done, chunkRows);
    const items = new Map<number, ImportItem>();
    const item = (row: StagedRow, outcome: ImportItem['outcome'], leadId: string | null = null, reason: string | null = null) =>
      items.set(row.row_number, { row: row.row_number, line: row.line, leadId, outcome, reason });

    const ctx: RowContext = {
      region: await workspaceRegion(db, imp.workspace_id),
      customKeys: await customFieldKeys(db, imp.workspace_id),
      tag: imp.tag ?? undefined,
    };
    const columns = imp.columns === null ? null : (JSON.parse(imp.columns) as string[]);
    const ready: Ready[] = [];
    for (const row of rows) {
      const read = row.problem ? { ok: false as const, reason: row.problem } : readRow(parseStaged(row, columns), ctx);
      if (read.ok) ready.push({ row, lead: read.lead });
      else item(row, 'failed', null, read.reason);
    }

    const onFile = await leadIdsByPhone(q, imp.workspace_id, [...new Set(ready.map((r) => r.lead.phone))]);
    const firsts = new Map<string, Ready & { id: string }>();
    for (const r of ready) if (!onFile.has(r.lead.phone) && !firsts.has(r.lead.phone)) firsts.set(r.lead.phone, { ...r, id: randomUUID() });
    const inserted = await insertLeads(
      q,
      imp.workspace_id,
      [...firsts.values()].map((f) => ({ ...f.lead, id: f.id })),
    );
    // A phone another writer took between the lookup and the insert is on file now, as any later row of a new phone.
    const taken = [...firsts.keys()].filter((p) => !inserted.has(p));
    for (const [phone, id] of await leadIdsByPhone(q, imp.workspace_id, taken)) onFile.set(phone, id);

    const tagsByLead = new Map<string, string[]>();
    for (const r of ready) {
      const createdId = inserted.get(r.lead.phone);
      if (createdId && firsts.get(r.lead.phone)?.row === r.row) {
        item(r.row, 'created', createdId);
        continue;
      }
      const id = createdId ?? onFile.get(r.lead.phone)!;
      if (imp.on_conflict === 'skip') {
        item(r.row, 'skipped');
        continue;
      }
      if (Object.keys(r.lead.standard).length || Object.keys(r.lead.custom).length) await updateLead(q, imp.workspace_id, id, r.lead.standard, r.lead.custom);
      tagsByLead.set(id, [...new Set([...(tagsByLead.get(id) ?? []), ...r.lead.tags])]);
      item(r.row, 'updated', id);
    }
    await addTags(q, imp.workspace_id, tagsByLead);

    const lastRow = rows.at(-1)?.row_number ?? imp.rows_total;
    const after = await finishChunk(q, importId, imp.workspace_id, [...items.values()], lastRow);
    return state(after.status, after.rows_done);
  });
}

/**
 * A staged record (written by the upload; unreadable only if the table was tampered with, which fails the import naming
 * the line): a CSV record's array of fields named by the import's columns, else the record's JSON object as it is.
 */
function parseStaged(row: StagedRow, columns: string[] | null): unknown {
  const unreadable = () => new DomainError('malformed_file', `line ${row.line}: the stored record cannot be read`);
  let record: unknown;
  try {
    record = JSON.parse(row.record);
  } catch {
    throw unreadable();
  }
  if (!Array.isArray(record)) return record;
  if (!columns || record.length !== columns.length) throw unreadable();
  return Object.fromEntries(columns.map((c, i) => [c, record[i]]));
}
