import { randomBytes } from 'node:crypto';
import { createDb } from '../../src/db/pool';
import { testEnv } from '../helpers/env';

describe('db.tx', () => {
  const db = createDb(testEnv('databaseUrl'), { max: 4 });
  const table = `tx_retry_${randomBytes(4).toString('hex')}`;
  beforeAll(() => db.query(`CREATE TABLE ${table} (id int PRIMARY KEY, n int NOT NULL); INSERT INTO ${table} VALUES (1, 0), (2, 0)`));
  afterAll(async () => {
    await db.query(`DROP TABLE ${table}`);
    await db.close();
  });

  it('runs a deadlock victim again: two transactions locking rows in opposite order both commit, each update once', async () => {
    // Each transaction locks its first row, waits until the other has too, then asks for the other's row.
    let locked = 0;
    const bothLocked = new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (locked < 2) return;
        clearInterval(check);
        resolve();
      }, 5);
    });
    let runs = 0;
    const crossing = (first: number, second: number) =>
      db.tx(async (q) => {
        runs++;
        await q.query(`UPDATE ${table} SET n = n + 1 WHERE id = $1`, [first]);
        locked++;
        await bothLocked;
        await q.query(`UPDATE ${table} SET n = n + 1 WHERE id = $1`, [second]);
      });
    await Promise.all([crossing(1, 2), crossing(2, 1)]);
    expect(runs).toBe(3);
    expect(await db.query(`SELECT id, n FROM ${table} ORDER BY id`)).toEqual([
      { id: 1, n: 2 },
      { id: 2, n: 2 },
    ]);
  });

  it('does not run again after other errors', async () => {
    let runs = 0;
    await expect(
      db.tx(async (q) => {
        runs++;
        await q.query(`INSERT INTO ${table} VALUES (1, 0)`);
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(runs).toBe(1);
  });
});
