// P12: P1, P2 and P9 with every request traced beside untraced, in one run. Each benchmark runs twice with its own
// stack, first with tracing off, then with the api process exporting every span (OTLP http/protobuf, or http/json with
// --protocol; always_on) to a local sink; each pass measures its api against the same raw baseline, so traced /
// untraced of the two ratios is the throughput tracing leaves.
import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { Flags, type BenchContext, type Benchmark } from './lib';

export const description =
  'P12: P1, P2, P9 (lead-lookup, enroll, calls) with tracing off, then on (every request exported to a local OTLP sink); traced / untraced ratio';

/** Tracing may cost at most a tenth of the throughput. */
export const goal = 0.9;

export const options = {
  only: 'comma-separated subset of lead-lookup,enroll,calls (default all three)',
  quick: 'yes: short passes (few requests, 2 rounds, short warm-up), to see it work on a busy machine',
  protocol: 'OTEL_EXPORTER_OTLP_PROTOCOL of the traced passes: http/protobuf (default) or http/json',
  'floor-lookups': "lookups for the tracing pipeline's own CPU per lookup, with lead-lookup (default 200000)",
};

const BENCHES = ['lead-lookup', 'enroll', 'calls'] as const;

/** Short passes: enough to show both sides, not to quote. */
const QUICK: Record<(typeof BENCHES)[number], Record<string, string>> = {
  'lead-lookup': { requests: '500', rounds: '2' },
  enroll: { requests: '100', rounds: '2', serial: '10', warmup: '50', 'warmup-min': '2', 'warmup-chunks': '3' },
  calls: { requests: '60', rounds: '2', serial: '10', 'e2e-calls': '20', warmup: '30', 'warmup-min': '2', 'warmup-chunks': '3' },
};

/** An OTLP/HTTP endpoint that takes every export and counts it (what a collector on the same host would cost the api). */
async function startSink(): Promise<{ url: string; exports: () => number; bytes: () => number; close: () => Promise<void> }> {
  let exports = 0;
  let bytes = 0;
  const server = http.createServer((req, res) => {
    req.on('data', (c: Buffer) => (bytes += c.length));
    req.on('end', () => {
      exports++;
      // An empty success answer in the request's own encoding (both exporters accept it).
      const json = String(req.headers['content-type']).startsWith('application/json');
      res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' }).end(json ? '{}' : undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exports: () => exports,
    bytes: () => bytes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The OTEL_* settings of a traced pass: every span exported to the sink. */
const tracedEnv = (sinkUrl: string, protocol: string) => ({
  OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl,
  OTEL_EXPORTER_OTLP_PROTOCOL: protocol,
  OTEL_TRACES_SAMPLER: 'always_on',
});

/**
 * The tracing pipeline's own CPU per lead lookup (bench/tracing/sdk-floor.ts, a child process exporting to the sink):
 * the least a traced lookup costs over an untraced one, whatever the api does besides.
 */
async function tracingFloor(ctx: BenchContext, sinkUrl: string, protocol: string, lookups: number): Promise<string> {
  ctx.say(`lead-lookup: the tracing pipeline alone, ${lookups} lookups untraced then traced…`);
  const script = path.join(__dirname, 'tracing', 'sdk-floor.ts');
  const { stdout } = await promisify(execFile)(process.execPath, [path.join(__dirname, '..', 'bin', 'run-ts.js'), script, String(lookups)], {
    env: { ...process.env, ...tracedEnv(sinkUrl, protocol) },
  });
  const floor = JSON.parse(stdout.trim().split('\n').pop()!) as { off: number; on: number };
  return (
    `lead-lookup: the tracing pipeline alone (server span, statement span, every span exported), CPU per lookup untraced → traced: ` +
    `${floor.off.toFixed(1)} → ${floor.on.toFixed(1)} µs, ${(floor.on - floor.off).toFixed(1)} µs added`
  );
}

/** Runs a benchmark with cleanups of its own, so one pass's servers are gone before the next starts. */
async function pass(ctx: BenchContext, bench: Benchmark, flags: Record<string, string>): Promise<number> {
  const cleanups: (() => Promise<void> | void)[] = [];
  try {
    return await bench.run({ ...ctx, flags: new Flags(flags), defer: (fn) => void cleanups.push(fn) });
  } finally {
    for (const fn of cleanups.reverse())
      await Promise.resolve()
        .then(fn)
        .catch((err: Error) => ctx.say(`cleanup failed: ${err.message}`));
  }
}

export async function run(ctx: BenchContext): Promise<number> {
  const only = ctx.flags
    .str('only', BENCHES.join(','))
    .split(',')
    .map((s) => s.trim());
  const unknown = only.filter((n) => !(BENCHES as readonly string[]).includes(n));
  if (unknown.length) throw new Error(`--only: ${unknown.join(', ')} is not one of ${BENCHES.join(', ')}`);
  const quick = ctx.flags.str('quick', 'no') === 'yes';
  const protocol = ctx.flags.str('protocol', 'http/protobuf');
  if (protocol !== 'http/protobuf' && protocol !== 'http/json') throw new Error('--protocol must be http/protobuf or http/json');
  const sink = await startSink();
  ctx.defer(() => sink.close());
  const rows: { name: string; off: number; on: number }[] = [];
  for (const name of BENCHES.filter((n) => only.includes(n))) {
    const bench = require(`./${name}`) as Benchmark;
    const flags = quick ? QUICK[name] : {};
    ctx.say(`${name}: tracing off`);
    const off = await pass(ctx, bench, flags);
    // The forked api processes read these at start (src/telemetry/tracing.ts); the bench process itself stays untraced.
    Object.assign(process.env, tracedEnv(sink.url, protocol));
    ctx.say(`${name}: tracing on, exporting ${protocol} to ${sink.url}`);
    try {
      rows.push({ name, off, on: await pass(ctx, bench, flags) });
    } finally {
      for (const k of ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_PROTOCOL', 'OTEL_TRACES_SAMPLER']) delete process.env[k];
    }
  }
  const lines = [`${'benchmark'.padEnd(12)}  ${'off'.padStart(6)}  ${'on'.padStart(6)}  on/off`];
  for (const r of rows) lines.push(`${r.name.padEnd(12)}  ${r.off.toFixed(3).padStart(6)}  ${r.on.toFixed(3).padStart(6)}  ${(r.on / r.off).toFixed(3)}`);
  const worst = Math.min(...rows.map((r) => r.on / r.off));
  lines.push(`spans exported: ${sink.exports()} exports, ${(sink.bytes() / 1024).toFixed(0)} KiB${quick ? ' (quick passes: not figures to quote)' : ''}`);
  if (only.includes('lead-lookup')) lines.push(await tracingFloor(ctx, sink.url, protocol, quick ? 20_000 : ctx.flags.int('floor-lookups', 200_000)));
  lines.push(`ratio tracing: ${worst.toFixed(3)} (lowest traced / untraced of the api-to-raw ratios: ${rows.map((r) => r.name).join(', ')})`);
  process.stdout.write(`\n${lines.join('\n')}\n`);
  return worst;
}
