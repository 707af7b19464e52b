import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrate, migrationsDir } from '../../src/db/migrate';
import { createDb, type Db } from '../../src/db/pool';
import { testEnv } from './env';

/**
 * A throwaway database on the test server with only the migrations whose file names sort before `prefix` applied,
 * so a test can put in rows as they were and then check what the next migration does to them. drop() removes it.
 */
export async function databaseMigratedBefore(prefix: string): Promise<{ db: Db; drop: () => Promise<void> }> {
  const older = mkdtempSync(path.join(os.tmpdir(), 'sb-migrations-'));
  for (const f of readdirSync(migrationsDir).filter((f) => f.endsWith('.sql') && f < prefix)) copyFileSync(path.join(migrationsDir, f), path.join(older, f));
  const admin = createDb(testEnv('databaseUrl'), { max: 1 });
  const name = `sb_migrate_${randomBytes(4).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(testEnv('databaseUrl'));
  url.pathname = `/${name}`;
  const db = createDb(url.toString(), { max: 1 });
  await migrate(db, older);
  rmSync(older, { recursive: true, force: true });
  return {
    db,
    async drop() {
      await db.close();
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.close();
    },
  };
}
