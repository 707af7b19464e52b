import { SingleBar } from 'cli-progress';
import { createReadStream, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { linkedRun } from './run-url';

/** How the CLI reaches the api: its origin and an API key of the workspace. */
export interface ApiTarget {
  url: string;
  apiKey: string;
}

/** Thrown for a command-line mistake (exit 64). */
export class ImportUsageError extends Error {}

const POLL_MS = 500;
/** The import's answer (GET /v1/leads/imports/{id}), as far as the progress view reads it. */
interface ImportView {
  import_id: string;
  status: string;
  rows: { total: number; read: number; created: number; updated: number; skipped: number; failed: number };
  message: string | null;
}

/** The api's answer (JSON) and the run its Link header names. */
async function call(target: ApiTarget, method: string, path: string, init: { body?: Readable; type?: string } = {}): Promise<{ body: any; run?: string }> {
  const res = await fetch(`${target.url.replace(/\/+$/, '')}${path}`, {
    method,
    headers: { authorization: `Bearer ${target.apiKey}`, ...(init.type ? { 'content-type': init.type } : {}) },
    ...(init.body ? { body: Readable.toWeb(init.body) as ReadableStream, duplex: 'half' } : {}),
  } as RequestInit);
  const body = (await res.json().catch(() => ({}))) as { message?: string };
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${body.message ?? ''}`.trim());
  return { body, run: linkedRun(res.headers.get('link')) };
}

const api = async (target: ApiTarget, method: string, path: string) => (await call(target, method, path)).body;

/** Uploads FILE (CSV, or NDJSON for .ndjson/.jsonl), streamed; the import id and its run's page in the Temporal UI. */
export async function uploadFile(
  target: ApiTarget,
  file: string,
  o: { tag?: string; onConflict?: string },
): Promise<{ importId: string; workflowUrl: string | undefined }> {
  if (o.onConflict && !['skip', 'update'].includes(o.onConflict)) throw new ImportUsageError('--on-conflict: skip or update');
  try {
    statSync(file);
  } catch {
    throw new ImportUsageError(`${file}: no such file`);
  }
  const type = /\.(ndjson|jsonl)$/i.test(file) ? 'application/x-ndjson' : 'text/csv';
  const query = new URLSearchParams({ ...(o.tag ? { tag: o.tag } : {}), ...(o.onConflict ? { on_conflict: o.onConflict } : {}) });
  const accepted = await call(target, 'POST', `/v1/leads/import${query.size ? `?${query}` : ''}`, { body: createReadStream(file), type });
  return { importId: accepted.body.import_id as string, workflowUrl: accepted.run };
}

/**
 * Follows an import until it ends: on a terminal a progress bar (rows, rows/s, ETA) on stderr, then the final state
 * as JSON on stdout (with `workflow_url`, the run's page in the Temporal UI, when the upload named it). Attaching to an
 * import already under way (or finished) works the same. Resolves false when it failed.
 */
export async function watchImport(
  target: ApiTarget,
  id: string,
  out: { tty: boolean } = { tty: !!process.stderr.isTTY },
  workflowUrl?: string,
): Promise<boolean> {
  const bar = new SingleBar({
    format:
      'import {bar} {percentage}% | {value}/{total} rows | {rate} rows/s | ETA {eta_formatted} | created {created} updated {updated} skipped {skipped} failed {failed}',
    noTTYOutput: false,
    hideCursor: out.tty,
    etaBuffer: 20,
  });
  let view: ImportView = await api(target, 'GET', `/v1/leads/imports/${encodeURIComponent(id)}`);
  const first = { at: Date.now(), read: view.rows.read };
  const counts = (v: ImportView) => ({ ...v.rows, rate: rateOf(first, v.rows.read) });
  if (out.tty) bar.start(view.rows.total, view.rows.read, counts(view));
  while (view.status === 'queued' || view.status === 'running') {
    await sleep(POLL_MS);
    view = await api(target, 'GET', `/v1/leads/imports/${encodeURIComponent(id)}`);
    if (out.tty) bar.update(view.rows.read, counts(view));
  }
  if (out.tty) bar.stop();
  console.log(JSON.stringify(workflowUrl ? { ...view, workflow_url: workflowUrl } : view, null, 2));
  return view.status === 'completed';
}

/** Rows per second since the watch began (what this view saw applied, not the import's whole history). */
function rateOf(first: { at: number; read: number }, read: number): string {
  const seconds = (Date.now() - first.at) / 1000;
  return seconds > 0 ? Math.round((read - first.read) / seconds).toString() : '0';
}
