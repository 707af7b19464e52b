import { randomBytes } from 'node:crypto';
import { createDb } from '../../src/db/pool';
import { testEnv } from '../helpers/env';

/** Polls check until it returns a value other than undefined (no time budget is asserted). */
async function eventually<T>(check: () => Promise<T | undefined> | T | undefined): Promise<T> {
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('db.listen', () => {
  const db = createDb(testEnv('databaseUrl'), { max: 2 });
  afterAll(() => db.close());

  const backendPid = (channel: string) =>
    db.one<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1', [`switchboard-listen:${channel}`]);

  it('delivers notifications, and after its connection is killed reconnects and tells that some may be missed', async () => {
    const channel = `t_${randomBytes(4).toString('hex')}`;
    const seen: (string | undefined)[] = [];
    const listener = await db.listen(channel, (payload) => seen.push(payload));
    try {
      await db.query('SELECT pg_notify($1, $2)', [channel, 'one']);
      await eventually(() => (seen.includes('one') ? true : undefined));

      const first = await eventually(() => backendPid(channel));
      await db.query('SELECT pg_terminate_backend($1)', [first.pid]);
      const second = await eventually(async () => {
        const row = await backendPid(channel);
        return row && row.pid !== first.pid ? row : undefined;
      });
      expect(second.pid).not.toBe(first.pid);
      // The loss was reported (payload undefined) after 'one' and before anything sent on the new connection.
      await eventually(() => (seen.lastIndexOf(undefined) > seen.indexOf('one') ? true : undefined));

      await db.query('SELECT pg_notify($1, $2)', [channel, 'two']);
      await eventually(() => (seen.includes('two') ? true : undefined));
    } finally {
      await listener.close();
    }
    // Closed: no connection is left, and none is made again.
    expect(await backendPid(channel)).toBeUndefined();
  });

  it('rejects a channel name that is not a plain identifier', async () => {
    await expect(db.listen('x; DROP TABLE leads', () => undefined)).rejects.toThrow(/not a channel name/);
  });
});
