// P11 (quality-figures.md): a CSV of N leads through POST /v1/leads/import (the api in a child process, a worker here),
// from the first byte sent to the import completed, against a bare COPY of the same rows into the leads table, same
// run. The api's memory is sampled while each file streams in: a file of N/10 rows and one of N rows should peak alike,
// and so should a hostile file of N rows under the widest header allowed (issue 38: a column name as long as the header
// cap, which staged once per row before the header was stored once).
import { createReadStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomBytes, randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { from as copyFrom } from 'pg-copy-streams';
import { migrate } from '../src/db/migrate';
import { createDb } from '../src/db/pool';
import { createApiKey } from '../src/workspaces/db/api-keys';
import { MAX_HEADER_BYTES } from '../src/leads/import/upload';
import { createLogger } from '../src/telemetry/log';
import { connectTemporal } from '../src/temporal/client';
import { ensureSearchAttributes } from '../src/temporal/search-attributes';
import { benchConfig, benchWorkspace, runServiceWorkers } from './in-process';
import { report, type BenchContext } from './lib';
import { forkServer } from './server-process';

export const description = 'P11: N CSV rows through POST /v1/leads/import to completion vs a bare COPY of the rows into leads (rows/s ratio; goal >= 0.25)';
export const goal = 0.25;
export const options = { rows: 'rows in the file (default 100000)' };

/** The i-th lead's phone: a valid US number (E.164 digits). */
const phoneOf = (i: number) => `1415${2_000_000 + i}`;

/** A CSV file of `rows` distinct leads (valid US numbers), as an import gets it. */
function writeCsv(dir: string, rows: number): string {
  const file = path.join(dir, `leads-${rows}.csv`);
  const lines = ['phone,first_name,last_name,email,company,tags'];
  for (let i = 0; i < rows; i++) lines.push(`${phoneOf(i)},First${i},Last${i},lead${i}@example.com,Company ${i % 100},"bench,row${i % 10}"`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/**
 * A hostile CSV of `rows` leads: the widest header an import takes (a column name of MAX_HEADER_BYTES less the phone
 * column, incompressible) over rows that leave that column empty.
 */
function writeHostileCsv(dir: string, rows: number): string {
  const file = path.join(dir, `hostile-${rows}.csv`);
  const name = randomBytes(Math.floor((MAX_HEADER_BYTES - 'phone,'.length) / 2)).toString('hex');
  const lines = [`phone,${name}`];
  for (let i = 0; i < rows; i++) lines.push(`${phoneOf(i)},`);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

export async function run(ctx: BenchContext): Promise<number> {
  const rows = ctx.flags.int('rows', 100_000);
  const databaseUrl = await ctx.databaseUrl();
  const db = createDb(databaseUrl, { max: 4 });
  ctx.defer(() => db.close());
  await migrate(db);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-import-'));
  ctx.defer(() => rmSync(dir, { recursive: true, force: true }));
  const small = writeCsv(dir, Math.max(1, Math.floor(rows / 10)));
  const large = writeCsv(dir, rows);
  const hostile = writeHostileCsv(dir, rows);
  const workspace = async () => {
    const ws = await benchWorkspace(db, ctx, 'import');
    return { id: ws.id, key: (await createApiKey(db, ws.id, { name: 'bench' })).key };
  };

  ctx.say(`COPY of ${rows} rows into leads (the baseline).`);
  const bare = await workspace();
  const copyStarted = performance.now();
  const client = await db.pool.connect();
  try {
    const lines = (async function* () {
      for (let i = 0; i < rows; i++)
        yield `${randomUUID()}\t${bare.id}\t${phoneOf(i)}\tFirst${i}\tLast${i}\tlead${i}@example.com\tCompany ${i % 100}\t{bench,row${i % 10}}\n`;
    })();
    await pipeline(
      Readable.from(lines),
      client.query(copyFrom('COPY leads (id, workspace_id, phone, first_name, last_name, email, company, tags) FROM STDIN')),
    );
  } finally {
    client.release();
  }
  const copySeconds = (performance.now() - copyStarted) / 1000;

  // The api child and the worker here seal Temporal payloads with one key.
  const encryptionKey = randomBytes(32).toString('base64');
  const prefix = `bench-import-${randomBytes(3).toString('hex')}`;
  const config = benchConfig(ctx, databaseUrl, prefix, { ENCRYPTION_KEY: encryptionKey });
  const logger = createLogger('warn', 'bench');
  const temporal = await connectTemporal(config);
  ctx.defer(() => temporal.connection.close());
  await ensureSearchAttributes(temporal.connection, ctx.temporal.namespace);
  ctx.say('Starting the api in a child process and a worker here.');
  const api = await forkServer<{ port: number }>(ctx, path.join(__dirname, 'import', 'server.ts'), {
    BENCH_DATABASE_URL: databaseUrl,
    BENCH_TEMPORAL_ADDRESS: ctx.temporal.address,
    TEMPORAL_NAMESPACE: ctx.temporal.namespace,
    TEMPORAL_TASK_QUEUE_PREFIX: prefix,
    LOG_LEVEL: 'warn',
    ENCRYPTION_KEY: encryptionKey,
  });
  await runServiceWorkers(ctx, { config, db, logger }, { kinds: ['journeys'] });

  const importFile = async (file: string) => {
    const ws = await workspace();
    let peak = 0;
    const sampler = setInterval(() => void api.memory().then((m) => (peak = Math.max(peak, m.rss))), 200);
    const started = performance.now();
    const accepted = await upload(api.message.port, ws.key, file);
    clearInterval(sampler);
    ctx.say(`Uploaded ${path.basename(file)} in ${((performance.now() - started) / 1000).toFixed(1)} s; applying it.`);
    const uploaded = (performance.now() - started) / 1000;
    for (const deadline = Date.now() + 30 * 60_000; ;) {
      if (Date.now() > deadline) throw new Error('the import did not complete within 30 minutes');
      const state = await getJson(api.message.port, ws.key, `/v1/leads/imports/${accepted.import_id}`);
      if (state.status === 'completed' || state.status === 'failed') {
        if (state.status !== 'completed' || state.rows.created !== state.rows.total) throw new Error(`import ended ${JSON.stringify(state)}`);
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    return { seconds: (performance.now() - started) / 1000, uploaded, peakRss: peak };
  };
  ctx.say(`Importing ${Math.floor(rows / 10)} rows, then ${rows} rows.`);
  const warm = await importFile(small);
  const full = await importFile(large);
  ctx.say(`Importing ${rows} rows under a header of ${MAX_HEADER_BYTES} bytes.`);
  const wide = await importFile(hostile);
  const copyRate = rows / copySeconds;
  const importRate = rows / full.seconds;
  return report(
    'import',
    [
      ['file size', statSync(large).size / 1_048_576, 'MiB'],
      ['bare COPY', copyRate, 'rows/s'],
      ['import (upload to completed)', importRate, 'rows/s'],
      ['of which upload', full.uploaded, 's'],
      [`api peak rss, ${Math.floor(rows / 10)} rows`, warm.peakRss / 1_048_576, 'MiB'],
      [`api peak rss, ${rows} rows`, full.peakRss / 1_048_576, 'MiB'],
      [`api peak rss, ${rows} rows, ${MAX_HEADER_BYTES}-byte header`, wide.peakRss / 1_048_576, 'MiB'],
    ],
    { value: importRate / copyRate, what: 'import rows/s over bare COPY rows/s' },
  );
}

function upload(port: number, key: string, file: string): Promise<{ import_id: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method: 'POST', path: '/v1/leads/import', headers: { authorization: `Bearer ${key}`, 'content-type': 'text/csv' } },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => (res.statusCode === 202 ? resolve(JSON.parse(body)) : reject(new Error(`upload: ${res.statusCode} ${body}`))));
      },
    );
    req.on('error', reject);
    createReadStream(file).pipe(req);
  });
}

async function getJson(port: number, key: string, path: string): Promise<any> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: `Bearer ${key}` } });
  return res.json();
}
