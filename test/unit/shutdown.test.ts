import { EventEmitter } from 'node:events';
import { DUPLICATE_SIGNAL_MS, handleShutdownSignals, type ShutdownPlan } from '../../src/core/shutdown';

/** A process stand-in: signals are emitted by the test, exit codes are recorded. */
function fakeProcess() {
  const emitter = new EventEmitter();
  const exits: number[] = [];
  return { proc: Object.assign(emitter, { exit: (code: number) => void exits.push(code) }), exits };
}

/** A plan whose stop() and force() are recorded; stop() resolves only when the test says so. */
function plan(watchdogMs = 20_000) {
  const fake = fakeProcess();
  const calls: string[] = [];
  let finishStop: () => void = () => undefined;
  const p: ShutdownPlan = {
    stop: () => {
      calls.push('stop');
      return new Promise<void>((resolve) => (finishStop = resolve));
    },
    force: () => void calls.push('force'),
    watchdogMs,
    say: () => undefined,
    proc: fake.proc,
  };
  const trigger = handleShutdownSignals(p);
  return { ...fake, calls, trigger, finishStop: () => finishStop() };
}

const settle = () => jest.advanceTimersByTimeAsync(0);

describe('signal handling', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it.each(['SIGINT', 'SIGTERM', 'SIGHUP'])('%s starts one orderly stop and exits 0 when it is done', async (signal) => {
    const t = plan();
    t.proc.emit(signal);
    await settle();
    expect(t.calls).toEqual(['stop']);
    expect(t.exits).toEqual([]);
    t.finishStop();
    await settle();
    expect(t.exits).toEqual([0]);
  });

  it('ignores the copy of the signal npm forwards right after the terminal sent it', async () => {
    const t = plan();
    t.proc.emit('SIGINT');
    await jest.advanceTimersByTimeAsync(DUPLICATE_SIGNAL_MS / 10);
    t.proc.emit('SIGINT');
    await settle();
    expect(t.calls).toEqual(['stop']);
    expect(t.exits).toEqual([]);
  });

  it('a second Ctrl-C kills the children and exits 130 at once', async () => {
    const t = plan();
    t.proc.emit('SIGINT');
    await jest.advanceTimersByTimeAsync(DUPLICATE_SIGNAL_MS + 1);
    t.proc.emit('SIGINT');
    await settle();
    expect(t.calls).toEqual(['stop', 'force']);
    expect(t.exits).toEqual([130]);
    // The orderly stop finishing later changes nothing.
    t.finishStop();
    await settle();
    expect(t.exits).toEqual([130]);
  });

  it('SIGTERM after Ctrl-C forces too', async () => {
    const t = plan();
    t.proc.emit('SIGINT');
    await jest.advanceTimersByTimeAsync(DUPLICATE_SIGNAL_MS + 1);
    t.proc.emit('SIGTERM');
    await settle();
    expect(t.exits).toEqual([130]);
  });

  it('the watchdog forces a stop that hangs', async () => {
    const t = plan(5_000);
    t.proc.emit('SIGTERM');
    await jest.advanceTimersByTimeAsync(4_999);
    expect(t.exits).toEqual([]);
    await jest.advanceTimersByTimeAsync(2);
    expect(t.calls).toEqual(['stop', 'force']);
    expect(t.exits).toEqual([130]);
  });

  it('the returned trigger stops with the given exit code (a part died on its own)', async () => {
    const t = plan();
    t.trigger('the worker stopped', 1);
    t.proc.emit('SIGINT');
    await settle();
    expect(t.calls).toEqual(['stop']);
    t.finishStop();
    await settle();
    expect(t.exits).toEqual([1]);
  });
});
