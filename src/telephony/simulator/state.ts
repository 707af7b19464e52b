import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Ledger, LedgerEntry, SimCall } from './ledger';

/** What the simulator keeps in its state file: every placement and every call (legs too) with its progress. */
interface SavedState {
  version: 1;
  entries: LedgerEntry[];
  calls: SimCall[];
}

/** Writes the ledger and its calls to `file` at once (a temporary file renamed over it: never half written). */
export function saveState(file: string, ledger: Ledger): void {
  const state: SavedState = { version: 1, entries: ledger.entries, calls: ledger.calls() };
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(state));
  renameSync(tmp, file);
}

/** The saved placements, each with its placed call and its legs; none when the file does not exist. */
export function loadState(file: string): { entry: LedgerEntry; root: SimCall; legs: SimCall[] }[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const state = JSON.parse(text) as SavedState;
  if (state.version !== 1) throw new Error(`${file}: not a carrier simulator state file (version ${String(state.version)})`);
  const bySid = new Map(state.calls.map((c) => [c.sid, c]));
  return state.entries.map((entry) => ({
    entry,
    root: bySid.get(entry.sid)!,
    legs: entry.legs.map((l) => bySid.get(l.sid)!),
  }));
}

/** Calls `save` at most once per `ms` while changes keep coming, and once more after the last. */
export function throttled(save: () => void, ms: number): { (): void; flush(): void } {
  let timer: NodeJS.Timeout | undefined;
  const run = () => {
    timer = undefined;
    save();
  };
  const schedule = () => void (timer ??= setTimeout(run, ms));
  return Object.assign(schedule, {
    flush() {
      if (timer) clearTimeout(timer);
      run();
    },
  });
}
