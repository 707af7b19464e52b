import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { waitForOtherBuild } from '../../src/devstack/go-install';
import { sdkLogger } from '../../worker/sdk-logger';

describe("waiting for another process's Temporal CLI build", () => {
  afterEach(() => jest.useRealTimers());

  it('says so once, then the time waited every 30 s, and when the build is there', async () => {
    jest.useFakeTimers();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-cli-wait-'));
    const [lock, binary] = [path.join(dir, 'cli.lock'), path.join(dir, 'temporal')];
    mkdirSync(lock);
    const lines: string[] = [];
    const built = () => existsSync(binary);
    const waiting = waitForOtherBuild(lock, { what: 'the Temporal CLI', built }, (l) => lines.push(l));
    await jest.advanceTimersByTimeAsync(65_000);
    expect(lines).toEqual([
      'Another process is building the Temporal CLI; waiting for it…',
      '  …still waiting for the other build of the Temporal CLI (30 s)',
      '  …still waiting for the other build of the Temporal CLI (60 s)',
    ]);
    writeFileSync(binary, '');
    rmSync(lock, { recursive: true });
    await jest.advanceTimersByTimeAsync(1000);
    await expect(waiting).resolves.toBe(true);
    expect(lines.at(-1)).toBe('The other process built the Temporal CLI (waited 66 s).');
  });

  it('gives up (to build itself) when the lock goes without a binary', async () => {
    jest.useFakeTimers();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sb-cli-wait-'));
    const lock = path.join(dir, 'cli.lock');
    mkdirSync(lock);
    const built = () => existsSync(path.join(dir, 'temporal'));
    const waiting = waitForOtherBuild(lock, { what: 'the Temporal CLI', built }, () => undefined);
    rmSync(lock, { recursive: true });
    await jest.advanceTimersByTimeAsync(1000);
    await expect(waiting).resolves.toBe(false);
  });
});

describe("the SDK's routine worker lines", () => {
  const capture = (level: string) => {
    const lines: { level: number; msg: string }[] = [];
    const sink = new Writable({ write: (chunk, _e, done) => (lines.push(JSON.parse(String(chunk))), done()) });
    return { log: sdkLogger(pino({ level }, sink)), lines };
  };

  it('go to debug: worker state changes and "No Nexus services registered"; other info lines stay at info', () => {
    const info = capture('info');
    info.log.info('Worker state changed', { state: 'RUNNING' });
    info.log.info('No Nexus services registered, not polling for Nexus tasks');
    info.log.info('Workflow bundle created');
    expect(info.lines.map((l) => l.msg)).toEqual(['Workflow bundle created']);
    const debug = capture('debug');
    debug.log.info('Worker state changed', { state: 'RUNNING' });
    expect(debug.lines).toMatchObject([{ level: 20, msg: 'Worker state changed' }]);
  });
});
