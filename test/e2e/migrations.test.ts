import { randomBytes } from 'node:crypto';
import { migrate, migrationsDir } from '../../src/db/migrate';
import { createDb } from '../../src/db/pool';
import { readdirSync } from 'node:fs';
import { testEnv } from '../helpers/env';

describe('migrations', () => {
  const name = `sb_migrate_${randomBytes(4).toString('hex')}`;
  const admin = createDb(testEnv('databaseUrl'), { max: 1 });
  const url = (() => {
    const u = new URL(testEnv('databaseUrl'));
    u.pathname = `/${name}`;
    return u.toString();
  })();

  beforeAll(() => admin.query(`CREATE DATABASE ${name}`));
  afterAll(async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.close();
  });

  it('apply once on an empty database, then are a no-op, also when run concurrently', async () => {
    const all = readdirSync(migrationsDir).filter((f) => f.endsWith('.sql')).sort();
    const dbs = [createDb(url, { max: 2 }), createDb(url, { max: 2 }), createDb(url, { max: 2 })];
    try {
      const results = await Promise.all(dbs.map((db) => migrate(db)));
      // Exactly one of the concurrent migrators applied everything; the others found nothing to do.
      expect(results.map((r) => r.length).sort()).toEqual([0, 0, all.length]);
      expect(await migrate(dbs[0]!)).toEqual([]);
      const recorded = await dbs[0]!.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
      expect(recorded.map((r) => r.name)).toEqual(all);
      const tables = await dbs[0]!.query<{ table_name: string }>(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name",
      );
      expect(tables.map((t) => t.table_name)).toEqual(
        expect.arrayContaining(['workspaces', 'api_keys', 'users', 'agents', 'phone_groups', 'phone_numbers', 'leads', 'journeys', 'journey_versions', 'enrollments', 'calls', 'flows', 'chat_sessions', 'chat_messages', 'integration_connections', 'automation_runs', 'idempotency_keys']),
      );
    } finally {
      await Promise.all(dbs.map((db) => db.close()));
    }
  });
});
