import { CsvError, parse, type Options } from 'csv-parse';
import { createHash } from 'node:crypto';
import { Transform, type Readable, type TransformCallback, type TransformOptions, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DomainError } from '../../core/errors';
import { MAX_JSON_DEPTH, nestedDeeperThan } from '../../core/json-depth';

export type ImportFormat = 'csv' | 'ndjson';

/** What an upload stored: its record count, the SHA-256 of its bytes (the Idempotency-Key's request hash) and a CSV file's header. */
export interface Uploaded {
  rows: number;
  digest: Buffer;
  /** A CSV file's column names (trimmed, lowercased), stored once with the import; its records are staged as arrays of fields. */
  columns?: string[];
}

/** The longest record (CSV) or line (NDJSON) an upload may hold, in bytes. */
export const MAX_RECORD_BYTES = 1_048_576;
/** The longest CSV header, in bytes (longer: 400). */
export const MAX_HEADER_BYTES = 65_536;
/** The most columns a CSV header may name (more: 400). */
export const MAX_COLUMNS = 1_000;
/** COPY writes gather staged lines up to about this many characters (a record longer than that goes alone). */
const COPY_BATCH_CHARS = 65_536;
/** Records waiting between two stages of the upload: a few, whatever their size. */
const RECORDS_IN_FLIGHT = 4;
/** The header's columns: what a CSV record's fields are named by. */
const HEADER_RULE = 'the first line must name the columns (phone and any of first_name, last_name, email, company, timezone, tags and custom fields)';

const malformed = (message: string) => new DomainError('malformed_file', message);

/**
 * Streams an upload into `copy` (a COPY … FROM STDIN of lead_import_rows) as one text-format line per record
 * (import_id, workspace_id, row_number, line, record as JSON text, problem), never holding more than a few records: a
 * byte counter (file_too_large past limitBytes) → the CSV or NDJSON parser → the COPY encoder. A CSV record is staged as
 * the array of its fields, the header once (Uploaded.columns); an NDJSON record as its line. What is stored is thus
 * about the size of the upload whatever the file's shape. A file the parser cannot read is a malformed_file DomainError
 * naming the line (and the column, never a value); a record it reads but that cannot be a lead fails later, on its own.
 * A throw inside any stage fails the upload (guarded), never the process.
 */
export async function streamUpload(
  source: Readable,
  copy: Writable,
  o: { importId: string; workspaceId: string; format: ImportFormat; limitBytes: number },
): Promise<Uploaded> {
  const hash = createHash('sha256');
  let bytes = 0;
  const meter = guarded(
    new Transform({
      transform(chunk: Buffer, _enc, done) {
        bytes += chunk.length;
        if (bytes > o.limitBytes) return done(new DomainError('file_too_large', `The file exceeds ${o.limitBytes} bytes`));
        hash.update(chunk);
        done(null, chunk);
      },
    }),
  );
  const encoder = guarded(new CopyEncoder(`${o.importId}\t${o.workspaceId}`));
  const lines = new CsvLines();
  const header: { columns?: string[] } = {};
  const stages = o.format === 'csv' ? [guarded(csvRecords()), guarded(csvToRows(lines, header)), encoder] : [guarded(ndjsonRows()), encoder];
  try {
    await pipeline(source, meter, ...(stages as [Transform]), copy);
  } catch (err) {
    if (err instanceof DomainError) throw err;
    // Every parse error of csv-parse (CSV_* codes, INVALID_OPENING_QUOTE and the like) is the file's fault.
    if (err instanceof CsvError) throw malformed(csvProblem(err, lines));
    throw err;
  }
  return { rows: encoder.rows, digest: hash.digest(), ...(o.format === 'csv' ? { columns: header.columns ?? [] } : {}) };
}

/**
 * A transform whose `_transform` or `_flush` throws fails like one that passes the error to its callback: the error
 * reaches the pipeline (and the request), not the event loop, where a throw inside a stream's write ends the process.
 */
export function guarded<T extends Transform>(stream: T): T {
  const failWith = (done: TransformCallback, called: () => boolean, err: unknown) => {
    const error = err instanceof Error ? err : new Error(String(err));
    if (called()) stream.destroy(error);
    else done(error);
  };
  const transform = stream._transform.bind(stream);
  stream._transform = (chunk: unknown, enc: BufferEncoding, done: TransformCallback) => {
    let called = false;
    const once: TransformCallback = (err, data) => {
      called = true;
      done(err, data);
    };
    try {
      transform(chunk, enc, once);
    } catch (err) {
      failWith(done, () => called, err);
    }
  };
  const flush = stream._flush?.bind(stream);
  if (flush) {
    stream._flush = (done: TransformCallback) => {
      let called = false;
      const once: TransformCallback = (err, data) => {
        called = true;
        done(err, data);
      };
      try {
        flush(once);
      } catch (err) {
        failWith(done, () => called, err);
      }
    };
  }
  return stream;
}

/** A staged record: its line and either the record (JSON text) or why it cannot be a lead. */
interface StagedRow {
  line: number;
  record?: string;
  problem?: string;
}

function csvRecords(): Transform {
  // The parser is a Transform: its stream options (how many records it buffers) go with its own.
  const options: Options & TransformOptions = {
    bom: true,
    info: true,
    skip_empty_lines: true,
    relax_column_count: true,
    max_record_size: MAX_RECORD_BYTES,
    readableHighWaterMark: RECORDS_IN_FLIGHT,
  };
  return parse(options);
}

/** What a csv-parse error says, by line and column: never a field's value (names, addresses), which its own messages quote. */
function csvProblem(err: CsvError, lines: CsvLines): string {
  const at = `CSV line ${lines.of(Number((err as { lines?: number }).lines))}`;
  const index = (err as { column?: unknown }).column;
  const column = typeof index === 'number' ? ` in column ${index + 1}` : '';
  switch (err.code) {
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      return `${at}: Invalid Closing Quote${column}: a quoted field must end at a comma or the end of the line (a quote inside it is doubled)`;
    case 'INVALID_OPENING_QUOTE':
      return `${at}: Invalid Opening Quote${column}: a field holding a quote must be quoted whole, the quotes inside it doubled`;
    case 'CSV_QUOTE_NOT_CLOSED':
      return `${at}: Quote Not Closed${column}: the file ends inside a quoted field`;
    case 'CSV_MAX_RECORD_SIZE':
      return `${at}: a record longer than ${MAX_RECORD_BYTES} bytes`;
    default:
      return `${at}: the file cannot be read as CSV (${err.code})`;
  }
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

/** CSV records (arrays) → staged rows (the fields as a JSON array); the header (bounded in bytes and columns) goes to `header`. */
function csvToRows(lines: CsvLines, header: { columns?: string[] }): Transform {
  return new Transform({
    objectMode: true,
    highWaterMark: RECORDS_IN_FLIGHT,
    transform({ record, info: parsed }: { record: string[]; info: { lines: number } }, _enc, done) {
      lines.read(record);
      const line = lines.of(parsed.lines);
      if (!header.columns) {
        const bytes = record.reduce((n, c) => n + Buffer.byteLength(c), record.length - 1);
        if (bytes > MAX_HEADER_BYTES) return done(malformed(`CSV line ${line}: the header is longer than ${MAX_HEADER_BYTES} bytes`));
        if (record.length > MAX_COLUMNS) return done(malformed(`CSV line ${line}: the header names ${record.length} columns, more than ${MAX_COLUMNS}`));
        const columns = record.map((c) => c.trim().toLowerCase());
        if (!columns.includes('phone')) return done(malformed(`CSV line ${line}: no phone column; ${HEADER_RULE}`));
        const dup = columns.findIndex((c, i) => columns.indexOf(c) !== i);
        if (dup !== -1) return done(malformed(`CSV line ${line}: columns ${columns.indexOf(columns[dup]!) + 1} and ${dup + 1} have the same name`));
        header.columns = columns;
        return done();
      }
      if (record.length !== header.columns.length) {
        return done(null, { line, problem: `has ${record.length} fields where the header names ${header.columns.length}` } satisfies StagedRow);
      }
      done(null, { line, record: JSON.stringify(record) } satisfies StagedRow);
    },
  });
}

/**
 * NDJSON bytes → staged rows, one per non-blank line, split on the newline byte (so a line's length is counted in bytes
 * whatever the chunks: over MAX_RECORD_BYTES is a malformed file). A line that is not JSON, or nests deeper than any
 * JSON body may (MAX_JSON_DEPTH), is a malformed file; one that is JSON but not an object fails alone.
 */
function ndjsonRows(): Transform {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let line = 0;
  const tooLong = () => malformed(`NDJSON line ${line + 1}: longer than ${MAX_RECORD_BYTES} bytes`);
  const emit = (stream: Transform, bytes: Buffer): DomainError | undefined => {
    line++;
    const text = bytes.toString('utf8');
    if (!text.trim()) return undefined;
    if (nestedDeeperThan(text, MAX_JSON_DEPTH)) return malformed(`NDJSON line ${line}: nested more than ${MAX_JSON_DEPTH} levels deep`);
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch (err) {
      // The parser's message quotes the text around the fault (names, addresses): only its position is kept.
      const at = /at position (\d+)/.exec((err as Error).message);
      return malformed(`NDJSON line ${line}: not valid JSON${at ? ` (at character ${Number(at[1]) + 1})` : ''}`);
    }
    const isObject = typeof record === 'object' && record !== null && !Array.isArray(record);
    stream.push(isObject ? ({ line, record: text } satisfies StagedRow) : ({ line, problem: 'not a JSON object' } satisfies StagedRow));
    return undefined;
  };
  return new Transform({
    readableObjectMode: true,
    readableHighWaterMark: RECORDS_IN_FLIGHT,
    transform(chunk: Buffer, _enc, done) {
      let start = 0;
      for (let nl = chunk.indexOf(0x0a); nl !== -1; nl = chunk.indexOf(0x0a, start)) {
        if (pendingBytes + nl - start > MAX_RECORD_BYTES) return done(tooLong());
        const bytes = pending.length ? Buffer.concat([...pending, chunk.subarray(start, nl)]) : chunk.subarray(start, nl);
        pending = [];
        pendingBytes = 0;
        start = nl + 1;
        const err = emit(this, bytes);
        if (err) return done(err);
      }
      if (start < chunk.length) {
        pendingBytes += chunk.length - start;
        if (pendingBytes > MAX_RECORD_BYTES) return done(tooLong());
        pending.push(chunk.subarray(start));
      }
      done();
    },
    flush(done) {
      done(pendingBytes ? emit(this, Buffer.concat(pending)) : undefined);
    },
  });
}

// COPY text format: backslash escapes; JSON text holds no raw newline in a string, and \N is NULL.
const copyText = (s: string) => s.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');

/** Staged rows → COPY text lines, numbered from 1, written in batches of about COPY_BATCH_CHARS. */
class CopyEncoder extends Transform {
  rows = 0;
  private batch: string[] = [];
  private batchChars = 0;

  /** key: the import's id and workspace id, as the line's first two columns. */
  constructor(private readonly key: string) {
    super({ writableObjectMode: true, writableHighWaterMark: RECORDS_IN_FLIGHT });
  }

  override _transform(row: StagedRow, _enc: BufferEncoding, done: (err?: Error | null) => void): void {
    const problem = row.problem === undefined ? '\\N' : copyText(row.problem);
    const text = `${this.key}\t${++this.rows}\t${row.line}\t${copyText(row.record ?? '{}')}\t${problem}\n`;
    this.batch.push(text);
    this.batchChars += text.length;
    if (this.batchChars >= COPY_BATCH_CHARS) this.flushBatch();
    done();
  }

  override _flush(done: (err?: Error | null) => void): void {
    this.flushBatch();
    done();
  }

  private flushBatch(): void {
    if (this.batch.length) this.push(this.batch.join(''));
    this.batch = [];
    this.batchChars = 0;
  }
}
