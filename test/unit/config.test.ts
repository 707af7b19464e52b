import { ConfigError, loadConfig, publicUrls } from '../../src/core/config';

describe('configuration from the environment', () => {
  it('falls back to the embedded defaults', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.TEMPORAL_ADDRESS).toBe('127.0.0.1:7233');
    expect(config.TEMPORAL_UI_PORT).toBe(8233);
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it('reads SSRF_ALLOWLIST as a list of CIDRs, empty by default', () => {
    expect(loadConfig({}).SSRF_ALLOWLIST).toEqual([]);
    expect(loadConfig({ SSRF_ALLOWLIST: '127.0.0.1/8, fd00::/8,,10.0.0.1' }).SSRF_ALLOWLIST).toEqual(['127.0.0.1/8', 'fd00::/8', '10.0.0.1']);
  });

  it('limits requests per key and per address by default, and 0 turns a limit off', () => {
    const config = loadConfig({});
    expect(config.RATE_LIMIT_PER_KEY).toBeGreaterThan(0);
    expect(config.RATE_LIMIT_PER_ADDRESS).toBeGreaterThan(0);
    expect(loadConfig({ RATE_LIMIT_PER_KEY: '0' }).RATE_LIMIT_PER_KEY).toBe(0);
  });

  it("keeps a chat run under Temporal's 2,000 Updates: continue-as-new after 1,000 by default, never 2,000 or more", () => {
    expect(loadConfig({}).CHAT_UPDATES_PER_RUN).toBe(1000);
    expect(loadConfig({ CHAT_UPDATES_PER_RUN: '1999' }).CHAT_UPDATES_PER_RUN).toBe(1999);
    expect(() => loadConfig({ CHAT_UPDATES_PER_RUN: '2000' })).toThrow(/CHAT_UPDATES_PER_RUN/);
    expect(loadConfig({}).WEBCHAT_SILENCE_GRACE_MS).toBe(45_000);
  });

  it('treats empty strings as unset', () => {
    expect(loadConfig({ PORT: '' }).PORT).toBe(3000);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['LOG_LEVEL', 'loud'],
    ['DATABASE_URL', 'mysql://x'],
    ['TEMPORAL_ADDRESS', 'no-port'],
    ['PUBLIC_BASE_URL', 'not a url'],
    ['TRUST_PROXY', 'maybe'],
    ['TEMPORAL_TASK_QUEUE_PREFIX', 'Has Spaces'],
    ['SSRF_ALLOWLIST', '127.0.0.1/8,localhost'],
    ['SSRF_ALLOWLIST', '10.0.0.0/33'],
    ['RATE_LIMIT_PER_KEY', '-1'],
    ['RATE_LIMIT_PER_ADDRESS', 'lots'],
    ['RATE_LIMIT_WINDOW_SECONDS', '0'],
    ['RATE_LIMIT_SYNC_MS', '5'],
  ])('rejects %s=%s naming the variable', (name, value) => {
    let error: unknown;
    try {
      loadConfig({ [name]: value });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).issues.map((i) => i.variable)).toEqual([name]);
    expect((error as Error).message).toContain(`${name}:`);
  });

  it.each([
    ['true', true],
    ['1', true],
    ['yes', true],
    ['false', false],
    ['0', false],
    ['no', false],
  ])('reads the boolean %s as %s', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).TRUST_PROXY).toBe(expected);
  });

  it('reports every bad variable at once', () => {
    expect(() => loadConfig({ PORT: 'x', LOG_LEVEL: 'y' })).toThrow(/PORT:[\s\S]*LOG_LEVEL:|LOG_LEVEL:[\s\S]*PORT:/);
  });

  it('derives the four public addresses', () => {
    expect(publicUrls({ HOST: '0.0.0.0', PORT: 3000, PUBLIC_BASE_URL: undefined })).toEqual({
      base_url: 'http://127.0.0.1:3000/v1',
      integrations_url: 'http://127.0.0.1:3000',
      hooks_url: 'http://127.0.0.1:3000',
      wss_url: 'ws://127.0.0.1:3000',
    });
    expect(publicUrls({ HOST: 'x', PORT: 1, PUBLIC_BASE_URL: 'https://sb.example.com/' }).wss_url).toBe('wss://sb.example.com');
  });
});
