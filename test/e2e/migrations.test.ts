import { randomBytes } from 'node:crypto';
import { migrate, migrationsDir } from '../../src/db/migrate';
import { createDb } from '../../src/db/pool';
import { readdirSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { testEnv } from '../helpers/env';
import { databaseMigratedBefore } from '../helpers/scratch-db';

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
    const all = readdirSync(migrationsDir)
      .filter((f) => f.endsWith('.sql'))
      .sort();
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
        expect.arrayContaining([
          'workspaces',
          'api_keys',
          'users',
          'agents',
          'phone_groups',
          'phone_numbers',
          'leads',
          'journeys',
          'journey_versions',
          'enrollments',
          'calls',
          'flows',
          'chat_sessions',
          'chat_messages',
          'integration_connections',
          'automation_runs',
          'idempotency_keys',
        ]),
      );
    } finally {
      await Promise.all(dbs.map((db) => db.close()));
    }
  });

  it("006 gives journey_versions and chat_messages their parent's workspace_id, required and pinned to the parent", async () => {
    const { db, drop } = await databaseMigratedBefore('006_');
    try {
      const [a, b, journey, flow] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
      await db.query("INSERT INTO workspaces (id, name) VALUES ($1, 'a'), ($2, 'b')", [a, b]);
      await db.query("INSERT INTO journeys (id, workspace_id, name) VALUES ($1, $2, 'j')", [journey, a]);
      await db.query("INSERT INTO journey_versions (journey_id, version, steps) VALUES ($1, 1, '[]'), ($1, 2, '[]')", [journey]);
      await db.query("INSERT INTO flows (id, workspace_id, name, owner_name, graph) VALUES ($1, $2, 'f', 'o', '{}')", [flow, a]);
      await db.query("INSERT INTO chat_sessions (id, workspace_id, flow_id) VALUES ('webchat-session.1', $1, $2)", [a, flow]);
      await db.query("INSERT INTO chat_messages (id, session_id, seq, sender, content) VALUES ($1, 'webchat-session.1', 1, 'user', 'hi')", [randomUUID()]);

      expect(await migrate(db)).toEqual(expect.arrayContaining(['006_workspace_scoping.sql']));
      expect(await db.query('SELECT version, workspace_id FROM journey_versions ORDER BY version')).toEqual([
        { version: 1, workspace_id: a },
        { version: 2, workspace_id: a },
      ]);
      expect(await db.query('SELECT workspace_id FROM chat_messages')).toEqual([{ workspace_id: a }]);
      // A version or message in another workspace than its parent, or in none, is refused.
      await expect(db.query("INSERT INTO journey_versions (journey_id, workspace_id, version, steps) VALUES ($1, $2, 3, '[]')", [journey, b])).rejects.toThrow(
        /foreign key/,
      );
      await expect(db.query("INSERT INTO journey_versions (journey_id, version, steps) VALUES ($1, 3, '[]')", [journey])).rejects.toThrow(/null value/);
      await expect(
        db.query("INSERT INTO chat_messages (id, workspace_id, session_id, seq, sender, content) VALUES ($1, $2, 'webchat-session.1', 2, 'bot', 'x')", [
          randomUUID(),
          b,
        ]),
      ).rejects.toThrow(/foreign key/);
    } finally {
      await drop();
    }
  });

  it('leaves no tenant table without a required workspace_id', async () => {
    const db = createDb(testEnv('databaseUrl'), { max: 1 });
    try {
      const missing = await db.query<{ table_name: string }>(
        `SELECT t.table_name FROM information_schema.tables t
         WHERE t.table_schema = 'public' AND t.table_type = 'BASE TABLE' AND t.table_name NOT IN ('workspaces', 'schema_migrations', 'rate_limits')
           AND NOT EXISTS (SELECT 1 FROM information_schema.columns c
                           WHERE c.table_schema = 'public' AND c.table_name = t.table_name AND c.column_name = 'workspace_id' AND c.is_nullable = 'NO')
         ORDER BY 1`,
      );
      expect(missing).toEqual([]);
    } finally {
      await db.close();
    }
  });
});
