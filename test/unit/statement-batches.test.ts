import { StatementBatches } from '../../src/db/statement-batches';

/** A batcher whose statements stay open until the test answers them; each answer echoes the items doubled. */
function controlled(opts: { max?: number; lingerMs?: number } = {}) {
  const statements: { items: number[]; answer(): void }[] = [];
  const batches = new StatementBatches<number, number>(
    (items) => new Promise((resolve) => statements.push({ items, answer: () => resolve(items.map((i) => i * 2)) })),
    { max: opts.max ?? 100, lingerMs: opts.lingerMs },
  );
  return { batches, statements };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('StatementBatches', () => {
  afterEach(() => jest.useRealTimers());

  it('sends items that come one at a time at once, each in its own statement, even with lingerMs', async () => {
    const { batches, statements } = controlled({ lingerMs: 50 });
    for (let i = 1; i <= 5; i++) {
      const result = batches.add(i);
      // The statement is sent within add itself: nothing waited for company.
      expect(statements.map((s) => s.items)).toHaveLength(i);
      statements[i - 1]!.answer();
      expect(await result).toBe(i * 2);
    }
    expect(statements.map((s) => s.items)).toEqual([[1], [2], [3], [4], [5]]);
  });

  it('under concurrent load, holds a lone item up to lingerMs so that later ones join its statement', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick'] });
    const { batches, statements } = controlled({ lingerMs: 5 });
    const a = batches.add(1);
    const b = batches.add(2); // queues behind the statement in flight: concurrent load
    statements[0]!.answer();
    await settle();
    expect(statements.map((s) => s.items)).toEqual([[1], [2]]);
    statements[1]!.answer();
    expect([await a, await b]).toEqual([2, 4]);

    const c = batches.add(3);
    await settle();
    expect(statements).toHaveLength(2); // lingering
    const d = batches.add(4);
    jest.advanceTimersByTime(4);
    expect(statements).toHaveLength(2);
    jest.advanceTimersByTime(1);
    expect(statements.map((s) => s.items)).toEqual([[1], [2], [3, 4]]);
    statements[2]!.answer();
    expect([await c, await d]).toEqual([6, 8]);

    // That statement carried two: the next lone item lingers too, goes alone after lingerMs, and the one after it is
    // sent at once (nothing overlapped any more).
    const e = batches.add(5);
    jest.advanceTimersByTime(5);
    expect(statements.map((s) => s.items)[3]).toEqual([5]);
    statements[3]!.answer();
    expect(await e).toBe(10);
    const f = batches.add(6);
    expect(statements.map((s) => s.items)[4]).toEqual([6]);
    statements[4]!.answer();
    expect(await f).toBe(12);
  });

  it('sends a lingering statement as soon as it is full', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick'] });
    const { batches, statements } = controlled({ lingerMs: 1000, max: 3 });
    const first = [batches.add(1), batches.add(2)];
    statements[0]!.answer(); // [1]
    await settle();
    statements[1]!.answer(); // [2], queued behind it
    await Promise.all(first);
    const next = [batches.add(3), batches.add(4)];
    expect(statements).toHaveLength(2);
    next.push(batches.add(5));
    expect(statements.map((s) => s.items)[2]).toEqual([3, 4, 5]);
    statements[2]!.answer();
    expect(await Promise.all(next)).toEqual([6, 8, 10]);
  });
});
