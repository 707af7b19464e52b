// Where a benchmark's CPU goes, per process, read from /proc (Linux): the Temporal dev server, Postgres (the postmaster
// and its backends), the api child and the bench process itself. On a 2-core machine that is CPU-bound at saturation,
// the total CPU one operation costs decides throughput; this table shows which process a ratio's gap comes from, and
// it holds up better on a busy machine than the ratio of two throughputs measured minutes apart.
import { readdirSync, readFileSync } from 'node:fs';

const TICK_US = 1e6 / 100; // USER_HZ is 100 on Linux

/** The process groups a side's CPU is split into. */
export type CpuGroup = 'temporal' | 'postgres' | 'api' | 'bench';

/** CPU time (µs) per group at one instant. */
export type CpuSnapshot = Record<CpuGroup, number>;

interface Proc {
  pid: number;
  ppid: number;
  comm: string;
  us: number;
  /** CPU of its children that exited and were waited for (a postmaster's backends that closed). */
  reapedUs: number;
}

function readProc(pid: number): Proc | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // comm may hold spaces and parentheses: the fields after it start at the last ')'.
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const f = stat.slice(close + 2).split(' ');
    return { pid, ppid: Number(f[1]), comm, us: (Number(f[11]) + Number(f[12])) * TICK_US, reapedUs: (Number(f[13]) + Number(f[14])) * TICK_US };
  } catch {
    return undefined; // exited while being read
  }
}

function allProcs(): Proc[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => readProc(Number(d)))
    .filter((p): p is Proc => p !== undefined);
}

/** The pids under `root` (inclusive). */
function descendants(procs: Proc[], root: number): Set<number> {
  const out = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const p of procs) if (!out.has(p.pid) && out.has(p.ppid)) grew = out.add(p.pid) !== undefined;
  }
  return out;
}

/**
 * A meter over this bench's processes: the api child (`apiPid`), the Postgres cluster whose postmaster is `postmasterPid`
 * (when known), the Temporal server (a `temporal` process under this one, when the bench started it) and this process.
 * Backends that exit between two snapshots are counted through the postmaster's reaped-children total.
 */
export function cpuMeter(opts: { apiPid?: number; postmasterPid?: number }): () => CpuSnapshot {
  return () => {
    const procs = allProcs();
    const sum = (pids: Set<number>) => procs.filter((p) => pids.has(p.pid)).reduce((t, p) => t + p.us, 0);
    const mine = descendants(procs, process.pid);
    const temporal = new Set(procs.filter((p) => mine.has(p.pid) && p.comm.startsWith('temporal')).map((p) => p.pid));
    const cpu = process.cpuUsage();
    return {
      temporal: sum(temporal),
      // Pools close idle connections: a backend that exits takes its CPU into the postmaster's reaped total.
      postgres: opts.postmasterPid ? sum(descendants(procs, opts.postmasterPid)) + (procs.find((p) => p.pid === opts.postmasterPid)?.reapedUs ?? 0) : 0,
      api: opts.apiPid ? sum(descendants(procs, opts.apiPid)) : 0,
      bench: cpu.user + cpu.system,
    };
  };
}

/** The postmaster's pid, from one of its backends' (`SELECT pg_backend_pid()` on a local server): its parent. */
export function postmasterOf(backendPid: number): number | undefined {
  return readProc(backendPid)?.ppid;
}

/** Accumulates CPU per operation for one side over many measurements. */
export class CpuLedger {
  private readonly totals: CpuSnapshot = { temporal: 0, postgres: 0, api: 0, bench: 0 };
  private ops = 0;

  constructor(private readonly read: () => CpuSnapshot) {}

  /** Runs `work` (which performs `ops` operations, its result's `ops`) and books the CPU every group spent meanwhile. */
  async book<T extends { ops: number }>(work: () => Promise<T>): Promise<T> {
    const before = this.read();
    const result = await work();
    const after = this.read();
    for (const g of Object.keys(this.totals) as CpuGroup[]) this.totals[g] += after[g] - before[g];
    this.ops += result.ops;
    return result;
  }

  /** µs of CPU per operation, per group and in total. */
  perOp(): CpuSnapshot & { total: number } {
    const per = (g: CpuGroup) => (this.ops ? this.totals[g] / this.ops : 0);
    const out = { temporal: per('temporal'), postgres: per('postgres'), api: per('api'), bench: per('bench') };
    return { ...out, total: out.temporal + out.postgres + out.api + out.bench };
  }
}
