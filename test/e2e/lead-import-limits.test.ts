import { startTestApp, type TestApp } from '../helpers/stack';

// The lead import's limits whatever the chunking of the body (issue 38: L7, L8, L10, H2).
let app: TestApp;
const LIMIT = 4_194_304;
beforeAll(async () => {
  app = await startTestApp({ config: { LEAD_IMPORT_MAX_BYTES: String(LIMIT) } });
});
afterAll(() => app.close());

const MiB = 1_048_576;
const upload = (key: string, body: string | Uint8Array<ArrayBuffer>, type = 'text/csv', headers: Record<string, string> = {}) =>
  fetch(`${app.url}/v1/leads/import`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': type, ...headers }, body }).then(
    async (res) => ({ status: res.status, body: (await res.json()) as any }),
  );

/** An NDJSON line of exactly `bytes` bytes (without its newline): a lead whose custom value is padded with `pad`. */
const lineOf = (bytes: number, pad: string) => {
  const head = '{"phone":"14155550131","note":"';
  const tail = '"}';
  const room = bytes - Buffer.byteLength(head + tail);
  const unit = Buffer.byteLength(pad);
  return head + pad.repeat(Math.floor(room / unit)) + 'x'.repeat(room % unit) + tail;
};

describe('NDJSON lines over the 1 MiB limit', () => {
  it('are a 400 naming the line whether they arrive in one chunk or many, and counted in bytes; a line of exactly 1 MiB is taken', async () => {
    const ws = await app.newWorkspace();
    const justOver = `{"phone":"14155550130"}\n${lineOf(MiB + 1000, 'a')}\n`;
    const oneChunk = await upload(ws.apiKey, justOver, 'application/x-ndjson');
    expect(oneChunk).toEqual({ status: 400, body: { status: 'failed', message: 'NDJSON line 2: longer than 1048576 bytes' } });
    // 700,000 characters, 1.4 MB: over the limit in bytes.
    const wide = await upload(ws.apiKey, `${lineOf(2 * 700_000 + 33, 'é')}\n`, 'application/x-ndjson');
    expect(wide).toEqual({ status: 400, body: { status: 'failed', message: 'NDJSON line 1: longer than 1048576 bytes' } });
    // The same over-long line sent a few bytes at a time.
    const bytes = new TextEncoder().encode(justOver);
    let at = 0;
    const trickle = new ReadableStream<Uint8Array>({
      pull(c) {
        if (at >= bytes.length) return c.close();
        const n = 1 + (at % 50_000);
        c.enqueue(bytes.subarray(at, (at += n)));
      },
    });
    const res = await fetch(`${app.url}/v1/leads/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ws.apiKey}`, 'content-type': 'application/x-ndjson' },
      body: trickle,
      duplex: 'half',
    } as RequestInit).catch((err: Error) => err);
    if (!(res instanceof Error)) expect(await res.json()).toEqual({ status: 'failed', message: 'NDJSON line 2: longer than 1048576 bytes' });
    const exact = await upload(ws.apiKey, `${lineOf(MiB, 'a')}\n`, 'application/x-ndjson');
    expect(exact.status).toBe(202);
  });
});

describe('parse errors', () => {
  it('name the line and the column, never a value', async () => {
    const ws = await app.newWorkspace();
    const closing = await upload(ws.apiKey, 'phone,first_name\n14155550140,ok\n14155550141,"Zelda Quux"Secret\n');
    expect(closing).toEqual({
      status: 400,
      body: {
        status: 'failed',
        message: 'CSV line 3: Invalid Closing Quote in column 2: a quoted field must end at a comma or the end of the line (a quote inside it is doubled)',
      },
    });
    const opening = await upload(ws.apiKey, 'phone,first_name,address\n14155550142,Ann,12 Zelda "Lane"\n');
    expect(opening).toEqual({
      status: 400,
      body: {
        status: 'failed',
        message: 'CSV line 2: Invalid Opening Quote in column 3: a field holding a quote must be quoted whole, the quotes inside it doubled',
      },
    });
    const unclosed = await upload(ws.apiKey, 'phone,first_name\n14155550143,"Zelda\n');
    expect(unclosed.body.message).toBe('CSV line 2: Quote Not Closed in column 2: the file ends inside a quoted field');
    const json = await upload(ws.apiKey, '{"phone":"14155550144","first_name":"Zelda", oops}\n', 'application/x-ndjson');
    expect(json).toEqual({
      status: 400,
      body: { status: 'failed', message: expect.stringMatching(/^NDJSON line 1: not valid JSON( \(at character \d+\))?$/) },
    });
    const positioned = await upload(ws.apiKey, '{"phone":"14155550145","first_name":"Zelda" x}\n', 'application/x-ndjson');
    expect(positioned.body.message).toBe('NDJSON line 1: not valid JSON (at character 45)');
    const dup = await upload(ws.apiKey, '14155550146,Zelda,Zelda\n');
    expect(dup.body.message).toMatch(/^CSV line 1: no phone column/);
    const twice = await upload(ws.apiKey, 'phone,Zelda,zelda\n');
    expect(twice.body.message).toBe('CSV line 1: columns 2 and 3 have the same name');
    for (const r of [closing, opening, unclosed, json, positioned, dup, twice]) expect(JSON.stringify(r.body)).not.toMatch(/Zelda|zelda|Secret|Lane|oops/);
  });
});

describe('what a CSV import stages', () => {
  it('is the records as arrays and the header once: the staging tables grow by about the upload', async () => {
    const ws = await app.newWorkspace();
    // A wide header (60 kB of column names) over 1,500 short rows (no worker runs here: the rows stay staged).
    const names = Array.from({ length: 600 }, (_, i) => `column_${String(i).padStart(4, '0')}_${'q'.repeat(88)}`);
    const rows = Array.from({ length: 1500 }, (_, i) => `1415556${String(i).padStart(4, '0')},Ann${i}${','.repeat(names.length)}`);
    const file = `phone,first_name,${names.join(',')}\n${rows.join('\n')}\n`;
    const size = () =>
      app.db
        .one<{ n: string }>("SELECT (pg_total_relation_size('lead_import_rows') + pg_total_relation_size('lead_imports'))::bigint AS n")
        .then((r) => Number(r!.n));
    const before = await size();
    const res = await upload(ws.apiKey, file);
    expect(res.status).toBe(202);
    const grown = (await size()) - before;
    const staged = Number(
      (await app.db.one<{ n: string }>('SELECT sum(octet_length(record))::bigint AS n FROM lead_import_rows WHERE import_id = $1', [res.body.import_id]))!.n,
    );
    // Before: every row staged every column name again (91 MB staged for this 0.7 MB file).
    expect(staged).toBeLessThanOrEqual(3 * Buffer.byteLength(file));
    expect(grown).toBeLessThanOrEqual(3 * Buffer.byteLength(file) + MiB);
    console.log(`wide CSV: ${Buffer.byteLength(file)} bytes uploaded, ${staged} bytes of records staged, tables grew ${grown} bytes`);
  });
});

describe('an Idempotency-Key replay', () => {
  it('reads no more than the size limit of its body (413), as the first request', async () => {
    const ws = await app.newWorkspace();
    const headers = { 'idempotency-key': 'replay-limit' };
    expect((await upload(ws.apiKey, 'phone\n14155550150\n', 'text/csv', headers)).status).toBe(202);
    // A replay streaming far more than the limit (no Content-Length): answered 413 once past it, not 409 after reading it all.
    let sent = 0;
    const chunk = new TextEncoder().encode('14155550150\n'.repeat(20_000));
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        if ((sent += chunk.length) > 10 * LIMIT) return c.close();
        c.enqueue(chunk);
      },
    });
    const res = await fetch(`${app.url}/v1/leads/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ws.apiKey}`, 'content-type': 'text/csv', ...headers },
      body,
      duplex: 'half',
    } as RequestInit).catch((err: Error) => err);
    if (!(res instanceof Error)) {
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({ status: 'failed', message: `The file exceeds ${LIMIT} bytes` });
    }
    expect(sent).toBeLessThan(4 * LIMIT);
    const declared = await upload(ws.apiKey, new Uint8Array(LIMIT + 1), 'text/csv', headers);
    expect(declared.status).toBe(413);
  });
});
