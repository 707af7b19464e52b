import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ConfigError, loadConfig } from '../../src/core/config';
import { resolveLogFormat } from '../../src/telemetry/log';
import { repoRoot } from '../helpers/env';

/** Runs a fixture that logs, with LOG_FORMAT as given; returns its stdout. */
function logLine(format: string | undefined, fixture = 'log-line.ts'): string {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH };
  if (format !== undefined) env.LOG_FORMAT = format;
  const res = spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'run-ts.js'), path.join(repoRoot, 'test', 'fixtures', fixture)], {
    cwd: repoRoot,
    env,
    encoding: 'utf8',
  });
  expect(res.stderr).toBe('');
  return res.stdout;
}

describe('log format', () => {
  it('defaults to auto and accepts json and pretty', () => {
    expect(loadConfig({}).LOG_FORMAT).toBe('auto');
    expect(loadConfig({ LOG_FORMAT: 'json' }).LOG_FORMAT).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'pretty' }).LOG_FORMAT).toBe('pretty');
  });

  it('rejects another value, naming the variable', () => {
    expect(() => loadConfig({ LOG_FORMAT: 'yaml' })).toThrow(ConfigError);
    expect(() => loadConfig({ LOG_FORMAT: 'yaml' })).toThrow(/LOG_FORMAT: .*"yaml"/);
  });

  it('auto is pretty on a terminal and JSON otherwise; an explicit choice wins', () => {
    expect(resolveLogFormat('auto', true)).toBe('pretty');
    expect(resolveLogFormat('auto', false)).toBe('json');
    expect(resolveLogFormat('json', true)).toBe('json');
    expect(resolveLogFormat('pretty', false)).toBe('pretty');
  });

  it('writes one JSON object a line when stdout is not a terminal (auto) or with json', () => {
    for (const format of [undefined, 'json']) {
      const lines = logLine(format).trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!)).toMatchObject({ level: 30, name: 'fixture', msg: 'request', requestId: 'r-1', status: 201 });
    }
  });

  it('writes one readable line with pretty (pino-pretty), without colours off a terminal', () => {
    const lines = logLine('pretty').trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO \(fixture\): request \{"requestId":"r-1","status":201\}$/);
  });

  it("keeps errors on their entry's one line, with type, message and cause (an activity failure was 5 lines)", () => {
    const pretty = logLine('pretty', 'log-errors.ts').trim().split('\n');
    expect(pretty).toHaveLength(2);
    expect(pretty[0]).toMatch(
      /WARN \(fixture\): Activity failed \{"error":\{"type":"ApplicationFailure","failureType":"invalid_data","message":"lead row is locked","at":"[^"]+"\},"durationMs":3\}$/,
    );
    expect(pretty[1]).toMatch(
      /ERROR \(fixture\): unhandled error \{"err":\{"type":"Error","message":"outer","at":"[^"]+","cause":\{"type":"Error","message":"inner"/,
    );
    const json = logLine('json', 'log-errors.ts')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(json).toHaveLength(2);
    expect(json[0].error).toMatchObject({ type: 'ApplicationFailure', message: 'lead row is locked', stack: expect.stringContaining('lead row is locked') });
    expect(json[1].err).toMatchObject({ type: 'Error', message: 'outer', cause: { type: 'Error', message: 'inner' } });
  });
});
