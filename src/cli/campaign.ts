// `campaign create|list|watch|pause|resume|cancel`: the api's campaign service, from the command line.
import { CreateCampaignBody } from '../campaigns/schema';
import { listCampaigns } from '../campaigns/db/campaigns';
import { leadCounts } from '../campaigns/db/run';
import { countsOf, presentCampaign, type CampaignCounts } from '../campaigns/present';
import { campaignView, controlCampaign, createCampaign, type CampaignDeps } from '../campaigns/service';
import { ENDED, type CampaignControl, type CampaignStatus } from '../campaigns/types';
import type { Db } from '../db/pool';
import { DomainError } from '../core/errors';
import { describeIssues } from '../core/validation';
import { UsageError } from './admin';

export interface CampaignCreateOpts {
  name?: string;
  agent?: string;
  from?: string;
  tag?: string;
  leads?: string;
  import?: string;
  window?: string;
  'max-concurrent'?: string;
  'calls-per-minute'?: string;
  retries?: string;
  'retry-on'?: string;
  'start-at'?: string;
}

const json = (flag: string, text: string | undefined) => {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new UsageError(`${flag}: not JSON`);
  }
};
const int = (text: string | undefined) => (text === undefined ? undefined : Number(text));

/** The api's body from the flags (exactly one of --tag, --leads, --import), checked by the api's schema. */
function campaignBody(o: CampaignCreateOpts) {
  const audiences = [
    o.tag !== undefined && { tag: o.tag },
    o.leads !== undefined && { lead_ids: o.leads.split(',').map((s) => s.trim()) },
    o.import !== undefined && { import_id: o.import },
  ].filter(Boolean);
  if (audiences.length !== 1) throw new UsageError('give exactly one of --tag, --leads, --import');
  const body = {
    name: o.name,
    agent: o.agent,
    ...(o.from !== undefined ? { from: o.from } : {}),
    audience: audiences[0],
    ...(o.window !== undefined ? { window: json('--window', o.window) } : {}),
    ...(o['max-concurrent'] !== undefined ? { max_concurrent: int(o['max-concurrent']) } : {}),
    ...(o['calls-per-minute'] !== undefined ? { calls_per_minute: int(o['calls-per-minute']) } : {}),
    ...(o.retries !== undefined ? { retries: json('--retries', o.retries) } : {}),
    ...(o['retry-on'] !== undefined ? { retry_on: o['retry-on'].split(',') } : {}),
    ...(o['start-at'] !== undefined ? { start_at: o['start-at'] } : {}),
  };
  const parsed = CreateCampaignBody.safeParse(body);
  if (!parsed.success) throw new UsageError(describeIssues(parsed.error.issues, 'options'));
  return parsed.data;
}

/** Runs a service call; its domain errors read as plain failures. */
async function run<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof DomainError) throw new Error(err.message);
    throw err;
  }
}

export async function campaignCreate(d: CampaignDeps, workspaceId: string, o: CampaignCreateOpts) {
  const { name, agent, ...spec } = campaignBody(o);
  return run(() => createCampaign(d, workspaceId, { name, agent: agent.toLowerCase(), spec }));
}

export async function campaignList(db: Db, workspaceId: string) {
  const rows = await listCampaigns(db, workspaceId, 200);
  return Promise.all(rows.map(async (c) => presentCampaign(c, countsOf(await leadCounts(db, c.id)))));
}

export const campaignControl = (d: CampaignDeps, workspaceId: string, id: string, action: CampaignControl) =>
  run(() => controlCampaign(d, workspaceId, id, action));

/** One line of progress: done of total, each outcome, in progress, waiting, and the estimated end. */
function progressLine(c: { status: CampaignStatus; counts: CampaignCounts; estimated_end_at: string | null }): string {
  const n = c.counts;
  const done = n.total - n.pending - n.waiting_for_window - n.dialing;
  const pct = n.total ? Math.floor((100 * done) / n.total) : 100;
  const outcomes = (['human', 'voicemail', 'no_answer', 'busy', 'failed', 'transferred', 'canceled', 'skipped'] as const).map((k) => `${k} ${n[k]}`).join(', ');
  const eta = c.estimated_end_at ? `  eta ${c.estimated_end_at.slice(11, 19)}Z` : '';
  return `${c.status.padEnd(9)} ${done}/${n.total} (${pct}%)  dialing ${n.dialing}  waiting ${n.waiting_for_window}  pending ${n.pending}  | ${outcomes}${eta}`;
}

/** Prints the campaign's progress every interval until it ends (redrawn in place on a terminal). */
export async function campaignWatch(db: Db, workspaceId: string, id: string, intervalMs: number, out: NodeJS.WriteStream = process.stdout): Promise<void> {
  for (;;) {
    const c = await run(() => campaignView(db, workspaceId, id));
    const line = progressLine(c);
    out.write(out.isTTY ? `\r\x1b[2K${line}` : `${line}\n`);
    if (ENDED.includes(c.status) && c.finished_at) {
      if (out.isTTY) out.write('\n');
      return;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
