/** What a process does on SIGINT, SIGTERM and SIGHUP. */
export interface ShutdownPlan {
  /** The orderly stop; the process exits 0 when it resolves, 1 when it rejects. */
  stop(): Promise<void>;
  /** Kills what must not outlive the process (child servers); runs on a second signal or when the watchdog fires. */
  force?(): Promise<void> | void;
  /** After this long, an orderly stop that has not finished is forced. */
  watchdogMs: number;
  say(line: string): void;
  /** Injected by tests; defaults to the real process. */
  proc?: { on(signal: NodeJS.Signals, listener: () => void): unknown; exit(code: number): void };
}

const SHUTDOWN_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * npm forwards the terminal's SIGINT to the script it runs, which got the same signal from the terminal a
 * moment earlier: a signal this soon after the first is that copy, not the user pressing Ctrl-C again.
 */
export const DUPLICATE_SIGNAL_MS = 1000;

/** How long force() may take before the process exits anyway. */
const FORCE_LIMIT_MS = 5000;

/**
 * Installs the signal handlers: the first signal starts plan.stop(), a later one (or the watchdog) runs
 * plan.force() and exits 130. Returns a trigger for the same orderly stop (e.g. when a part dies on its own).
 */
export function handleShutdownSignals(plan: ShutdownPlan): (reason: string, exitCode?: number) => void {
  const proc = plan.proc ?? process;
  let firstAt: number | undefined;
  let forcing = false;

  const force = (why: string) => {
    if (forcing) return;
    forcing = true;
    plan.say(`${why}: forcing exit`);
    const limit = new Promise<void>((resolve) => setTimeout(resolve, FORCE_LIMIT_MS).unref());
    void Promise.race([Promise.resolve().then(() => plan.force?.()), limit])
      .catch((err: Error) => plan.say(`force failed: ${err.message}`))
      .finally(() => proc.exit(130));
  };

  const begin = (reason: string, exitCode = 0) => {
    if (firstAt !== undefined) return;
    firstAt = Date.now();
    plan.say(`${reason}: stopping… (press Ctrl-C again to force)`);
    // Not unref'd: a stop stuck on nothing (no open handles) must still end in an exit.
    const watchdog = setTimeout(() => force(`still stopping after ${plan.watchdogMs} ms`), plan.watchdogMs);
    plan.stop().then(
      () => {
        clearTimeout(watchdog);
        if (forcing) return;
        plan.say(`stopped (${Date.now() - firstAt!} ms)`);
        proc.exit(exitCode);
      },
      (err: Error) => {
        clearTimeout(watchdog);
        if (forcing) return;
        plan.say(`stop failed: ${err.message}`);
        proc.exit(1);
      },
    );
  };

  for (const signal of SHUTDOWN_SIGNALS) {
    proc.on(signal, () => {
      if (firstAt === undefined) begin(signal);
      else if (Date.now() - firstAt >= DUPLICATE_SIGNAL_MS) force(`second ${signal}`);
    });
  }
  return begin;
}
