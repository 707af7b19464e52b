import { Coalescer } from '../../src/core/coalesce';

/** A call the test finishes by hand. */
function controlled() {
  const started: (() => void)[] = [];
  const fn = () => new Promise<void>((resolve) => started.push(resolve));
  return { fn, started };
}

describe('Coalescer', () => {
  it('runs the first call, and one shared next call for everyone who came while it ran, started after it', async () => {
    const c = new Coalescer<void>();
    const { fn, started } = controlled();
    const first = c.run('k', fn);
    const waiting = [c.run('k', fn), c.run('k', fn), c.run('k', fn)];
    expect(started).toHaveLength(1);
    expect(waiting[0]).toBe(waiting[2]);
    started[0]!();
    await first;
    await Promise.resolve();
    expect(started).toHaveLength(2); // the shared next call began only once the first had ended
    const later = c.run('k', fn); // came while the second ran: a third call, after it
    started[1]!();
    await Promise.all(waiting);
    await new Promise((r) => setImmediate(r));
    expect(started).toHaveLength(3);
    started[2]!();
    await later;
  });

  it('keeps keys apart, passes failures to the callers who shared the call, and forgets settled keys', async () => {
    const c = new Coalescer<number>();
    let calls = 0;
    const fail = () => Promise.reject(new Error(`call ${++calls}`));
    const a = c.run('a', fail);
    const b = c.run('b', async () => 7);
    const a2 = c.run('a', fail);
    await expect(a).rejects.toThrow('call 1');
    await expect(b).resolves.toBe(7);
    await expect(a2).rejects.toThrow('call 2');
    await expect(c.run('a', async () => 1)).resolves.toBe(1);
  });
});
