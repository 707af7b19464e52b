import { Readable, Transform, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { guarded, streamUpload } from '../../src/leads/import/upload';

// A throw inside a stream's transform or flush runs inside another stream's write or an event handler: unguarded it is
// an uncaught exception (the process ends). guarded() makes it the pipeline's failure instead.
const sink = () =>
  new Writable({
    write(_chunk, _enc, done) {
      done();
    },
  });

describe('guarded transforms', () => {
  it('turn a throw in _transform into the pipeline failing with it', async () => {
    const boom = guarded(
      new Transform({
        transform() {
          throw new RangeError('Maximum call stack size exceeded');
        },
      }),
    );
    await expect(pipeline(Readable.from([Buffer.from('a'), Buffer.from('b')]), boom, sink())).rejects.toThrow(RangeError);
  });

  it('turn a throw in _flush into the pipeline failing with it, and keep a throw after the callback from escaping', async () => {
    const flushBoom = guarded(
      new Transform({
        transform(chunk, _enc, done) {
          done(null, chunk);
        },
        flush() {
          throw new Error('flush failed');
        },
      }),
    );
    await expect(pipeline(Readable.from([Buffer.from('a')]), flushBoom, sink())).rejects.toThrow('flush failed');
    const late = guarded(
      new Transform({
        transform(chunk, _enc, done) {
          done(null, chunk);
          throw new Error('after the callback');
        },
      }),
    );
    await expect(pipeline(Readable.from([Buffer.from('a')]), late, sink())).rejects.toThrow('after the callback');
  });
});

describe('streamUpload', () => {
  const copied = async (format: 'csv' | 'ndjson', body: string) => {
    let text = '';
    const copy = new Writable({
      write(chunk: Buffer, _enc, done) {
        text += chunk.toString();
        done();
      },
    });
    const up = await streamUpload(Readable.from([Buffer.from(body)]), copy, { importId: 'I', workspaceId: 'W', format, limitBytes: 1_000_000 });
    return { ...up, lines: text.split('\n').filter(Boolean) };
  };

  it('stages a CSV record as the array of its fields, the header once, and an NDJSON record as its line', async () => {
    const csv = await copied('csv', 'Phone,First_Name\r\n14155550100,"Ann, ""A"""\r\n14155550101\r\n');
    expect(csv.columns).toEqual(['phone', 'first_name']);
    expect(csv.lines).toEqual(['I\tW\t1\t2\t["14155550100","Ann, \\\\"A\\\\""]\t\\N', 'I\tW\t2\t3\t{}\thas 1 fields where the header names 2']);
    const nd = await copied('ndjson', '{"phone":"14155550100","x":"a\\tb"}\n\n[1]\n');
    expect(nd.columns).toBeUndefined();
    expect(nd.lines).toEqual(['I\tW\t1\t1\t{"phone":"14155550100","x":"a\\\\tb"}\t\\N', 'I\tW\t2\t3\t{}\tnot a JSON object']);
  });
});
