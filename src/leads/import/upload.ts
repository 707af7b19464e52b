import { CsvError, parse } from 'csv-parse';
import { createHash } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';
import { Transform, type Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DomainError } from '../../core/errors';

export type ImportFormat = 'csv' | 'ndjson';

/** What an upload stored: its record count and the SHA-256 of its bytes (the Idempotency-Key's request hash). */
export interface Uploaded {
  rows: number;
  digest: Buffer;
}

/** The longest record (CSV) or line (NDJSON) an upload may hold. */
export const MAX_RECORD_BYTES = 1_048_576;
/** The header's columns: what a CSV record's fields are named by. */
const HEADER_RULE = 'the first line must name the columns (phone and any of first_name, last_name, email, company, timezone, tags and custom fields)';

const malformed = (message: string) => new DomainError('malformed_file', message);

/**
 * Streams an upload into `copy` (a COPY … FROM STDIN of lead_import_rows) as one text-format line per record
 * (import_id, workspace_id, row_number, line, record as JSON, problem), never holding more than a few records: a byte counter
 * (file_too_large past limitBytes) → the CSV or NDJSON parser → the COPY encoder. A file the parser cannot read is a
 * malformed_file DomainError naming the line; a record it reads but that cannot be a lead fails later, on its own.
 */
export async function streamUpload(
  source: Readable,
  copy: Writable,
  o: { importId: string; workspaceId: string; format: ImportFormat; limitBytes: number },
): Promise<Uploaded> {
  const hash = createHash('sha256');
  let bytes = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      if (bytes > o.limitBytes) return done(new DomainError('file_too_large', `The file exceeds ${o.limitBytes} bytes`));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  const encoder = new CopyEncoder(`${o.importId}\t${o.workspaceId}`);
  const lines = new CsvLines();
  const stages = o.format === 'csv' ? [csvRecords(), csvToRows(lines), encoder] : [ndjsonRows(), encoder];
  try {
    await pipeline(source, meter, ...(stages as [Transform]), copy);
  } catch (err) {
    if (err instanceof DomainError) throw err;
    // Every parse error of csv-parse (CSV_* codes, INVALID_OPENING_QUOTE and the like) is the file's fault.
    if (err instanceof CsvError) throw malformed(`CSV line ${lines.of(Number(err.lines))}: ${err.message.replace(/ at line \d+/, '')}`);
    throw err;
  }
  return { rows: encoder.rows, digest: hash.digest() };
}

/** A staged record: its line and either the record or why it cannot be a lead. */
interface StagedRow {
  line: number;
  record?: unknown;
  problem?: string;
}

function csvRecords(): Transform {
  return parse({ bom: true, info: true, skip_empty_lines: true, relax_column_count: true, max_record_size: MAX_RECORD_BYTES });
}

/** File lines from csv-parse's count, which counts a CRLF inside a quoted field as two lines. */
class CsvLines {
  private extra = 0;
  /** The file line of csv-parse's line number, given the fields read so far. */
  of(parserLine: number): number {
    return parserLine - this.extra;
  }
  /** Counts a record's quoted CRLFs. */
  read(record: string[]): void {
    for (const field of record) if (field.includes('\r\n')) this.extra += field.split('\r\n').length - 1;
  }
}

/** CSV records (arrays) → staged rows named by the header. */
function csvToRows(lines: CsvLines): Transform {
  let header: string[] | undefined;
  return new Transform({
    objectMode: true,
    transform({ record, info: parsed }: { record: string[]; info: { lines: number } }, _enc, done) {
      lines.read(record);
      const info = { lines: lines.of(parsed.lines) };
      if (!header) {
        header = record.map((c) => c.trim().toLowerCase());
        const dup = header.find((c, i) => header!.indexOf(c) !== i);
        if (!header.includes('phone')) return done(malformed(`CSV line ${info.lines}: no phone column; ${HEADER_RULE}`));
        if (dup !== undefined) return done(malformed(`CSV line ${info.lines}: the column ${JSON.stringify(dup)} appears twice`));
        return done();
      }
      if (record.length !== header.length) {
        return done(null, { line: info.lines, problem: `has ${record.length} fields where the header names ${header.length}` } satisfies StagedRow);
      }
      done(null, { line: info.lines, record: Object.fromEntries(header.map((c, i) => [c, record[i]])) } satisfies StagedRow);
    },
  });
}

/** NDJSON bytes → staged rows, one per non-blank line; a line that is not JSON is a malformed file. */
function ndjsonRows(): Transform {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let line = 0;
  const emit = (stream: Transform, text: string): DomainError | undefined => {
    line++;
    if (!text.trim()) return undefined;
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch (err) {
      return malformed(`NDJSON line ${line}: not valid JSON (${(err as Error).message})`);
    }
    const isObject = typeof record === 'object' && record !== null && !Array.isArray(record);
    stream.push(isObject ? { line, record } : { line, problem: 'not a JSON object' });
    return undefined;
  };
  return new Transform({
    readableObjectMode: true,
    transform(chunk: Buffer, _enc, done) {
      const lines = (pending + decoder.write(chunk)).split('\n');
      pending = lines.pop()!;
      for (const text of lines) {
        const err = emit(this, text);
        if (err) return done(err);
      }
      if (pending.length > MAX_RECORD_BYTES) return done(malformed(`NDJSON line ${line + 1}: longer than ${MAX_RECORD_BYTES} bytes`));
      done();
    },
    flush(done) {
      const rest = pending + decoder.end();
      done(rest ? emit(this, rest) : undefined);
    },
  });
}

// COPY text format: backslash escapes; JSON text holds no raw tab or newline, and \N is NULL.
const copyText = (s: string) => s.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');

/** Staged rows → COPY text lines, numbered from 1, a few hundred per write. */
class CopyEncoder extends Transform {
  rows = 0;
  private batch: string[] = [];

  /** key: the import's id and workspace id, as the line's first two columns. */
  constructor(private readonly key: string) {
    super({ writableObjectMode: true });
  }

  override _transform(row: StagedRow, _enc: BufferEncoding, done: (err?: Error | null) => void): void {
    const record = row.record === undefined ? '{}' : JSON.stringify(row.record);
    const problem = row.problem === undefined ? '\\N' : copyText(row.problem);
    this.batch.push(`${this.key}\t${++this.rows}\t${row.line}\t${copyText(record)}\t${problem}\n`);
    if (this.batch.length >= 256) this.flushBatch();
    done();
  }

  override _flush(done: (err?: Error | null) => void): void {
    this.flushBatch();
    done();
  }

  private flushBatch(): void {
    if (this.batch.length) this.push(this.batch.join(''));
    this.batch = [];
  }
}
