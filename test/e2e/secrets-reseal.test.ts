import { randomBytes } from 'node:crypto';
import { createConnection } from '../../src/connections/store';
import { Keyring } from '../../src/crypto/keyring';
import { migrate } from '../../src/db/migrate';
import { createDb } from '../../src/db/pool';
import { resealSecrets } from '../../src/crypto/db/reseal';
import { rotateWebhookSecret, webhookSecrets, webhookSecretAad } from '../../src/webhooks/db/webhook-secrets';
import { createWorkspace } from '../../src/workspaces/db/workspaces';
import { connectionAad } from '../../src/connections/sealed';
import { testEnv } from '../helpers/env';
import { runCli } from '../helpers/processes';

jest.setTimeout(120_000);

// A database of its own: re-sealing is database-wide, and the shared test database's secrets must keep the test key.
describe('switchboard secrets reseal', () => {
  const name = `sb_reseal_${randomBytes(4).toString('hex')}`;
  const admin = createDb(testEnv('databaseUrl'), { max: 1 });
  const url = Object.assign(new URL(testEnv('databaseUrl')), { pathname: `/${name}` }).toString();
  const db = createDb(url, { max: 2 });
  const [oldKey, newKey, lostKey] = [randomBytes(32), randomBytes(32), randomBytes(32)];
  const cli = (...args: string[]) =>
    runCli(args, {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: url,
      LOG_LEVEL: 'warn',
      ENCRYPTION_KEY: newKey.toString('base64'),
      ENCRYPTION_KEYS_PREVIOUS: oldKey.toString('hex'),
    });

  beforeAll(async () => {
    await admin.query(`CREATE DATABASE ${name}`);
    await migrate(db);
  });
  afterAll(async () => {
    await db.close();
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.close();
  });

  it('re-seals connections and webhook secrets under the current key, resumes after a stop, reseals nothing twice', async () => {
    const old = new Keyring(oldKey);
    const plain: { table: string; id: string; column: string; aad: string; value: string }[] = [];
    for (let i = 0; i < 3; i++) {
      const ws = await createWorkspace(db, { name: `w${i}` });
      const secrets = { api_key: `key-${i}` };
      const { connection } = await createConnection(db, { workspaceId: ws.id, userId: null, integration: 'slack', kind: 'api_key', secrets }, old);
      plain.push({
        table: 'integration_connections',
        id: connection.id,
        column: 'credentials_enc',
        aad: connectionAad(connection.id),
        value: JSON.stringify(secrets),
      });
      const first = (await webhookSecrets(db, ws.id, old))!;
      if (i === 0) {
        const rotated = (await rotateWebhookSecret(db, ws.id, 3600, old))!;
        plain.push({ table: 'workspaces', id: ws.id, column: 'previous_webhook_secret_enc', aad: webhookSecretAad(ws.id), value: first.current });
        plain.push({ table: 'workspaces', id: ws.id, column: 'webhook_secret_enc', aad: webhookSecretAad(ws.id), value: rotated.current });
      } else {
        plain.push({ table: 'workspaces', id: ws.id, column: 'webhook_secret_enc', aad: webhookSecretAad(ws.id), value: first.current });
      }
    }

    // Stopped after its first value (as by Ctrl-C): one value is under the new key, the rest still under the old.
    const ring = new Keyring(newKey, [oldKey]);
    const stop = new Error('stopped');
    await expect(
      resealSecrets(db, ring, {
        batchSize: 1,
        onProgress: (p) => {
          if (p.resealed === 1) throw stop;
        },
      }),
    ).rejects.toBe(stop);

    const run = await cli('secrets', 'reseal');
    expect(run.stderr).toMatch(/integration_connections\.credentials_enc: 2\/2 resealed/);
    expect(run.code).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out.status).toBe('success');
    const resealed = out.columns.map((c: { column: string; resealed: number }) => [c.column, c.resealed]);
    expect(resealed).toEqual([
      ['integration_connections.credentials_enc', 2],
      ['workspaces.webhook_secret_enc', 3],
      ['workspaces.previous_webhook_secret_enc', 1],
    ]);

    // The new key alone opens every value, and each is what was sealed.
    const current = new Keyring(newKey);
    for (const p of plain) {
      const [row] = await db.query<{ v: Buffer }>(`SELECT ${p.column} AS v FROM ${p.table} WHERE id = $1`, [p.id]);
      expect(current.openText(row!.v, p.aad)).toBe(p.value);
    }
    const again = await cli('secrets', 'reseal');
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout).columns.map((c: { resealed: number; stale: number }) => [c.stale, c.resealed])).toEqual([
      [0, 0],
      [0, 0],
      [0, 0],
    ]);
  });

  it('leaves a value it cannot open as it is, names its row and exits 1', async () => {
    const ws = await createWorkspace(db, { name: 'lost' });
    const { connection } = await createConnection(
      db,
      { workspaceId: ws.id, userId: null, integration: 'slack', kind: 'api_key', secrets: { api_key: 'x' } },
      new Keyring(lostKey),
    );
    const [before] = await db.query<{ v: Buffer }>('SELECT credentials_enc AS v FROM integration_connections WHERE id = $1', [connection.id]);
    const run = await cli('secrets', 'reseal');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`integration_connections.credentials_enc rows ${connection.id}`);
    expect(run.stderr).toMatch(/ENCRYPTION_KEYS_PREVIOUS/);
    const [after] = await db.query<{ v: Buffer }>('SELECT credentials_enc AS v FROM integration_connections WHERE id = $1', [connection.id]);
    expect(after!.v.equals(before!.v)).toBe(true);
  });
});
