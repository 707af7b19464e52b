import { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import { keyringFromConfig } from '../../src/crypto/keyring';
import { codecToken } from '../../src/temporal/codec-endpoint';
import { decodeHistory, EncryptionCodec, ENCRYPTED_ENCODING } from '../../src/temporal/codec';
import { uiCodecEndpoint } from '../../src/cli/dev';
import { resolveTemporalCli } from '../../src/devstack/temporal-cli';
import { startTemporalDevServer } from '../../src/devstack/temporal-server';
import { freePort } from '../helpers/processes';
import { startTestApp, testConfig, type TestApp } from '../helpers/stack';
import { startVendorFake, type VendorFake } from '../helpers/vendor-fake';

jest.setTimeout(120_000);

const historyBytes = (h: temporal.api.history.v1.IHistory) => Buffer.from(temporal.api.history.v1.History.encode(h).finish());

describe('payloads in Temporal are encrypted; the codec endpoint decodes them for operators', () => {
  let app: TestApp;
  let fake: VendorFake;
  let ws: { superuserKey: string };
  let token: string;
  // Every line the api logs, as written (JSON).
  const logLines: string[] = [];
  const secrets = { bearer: `tok-${randomBytes(12).toString('hex')}`, header: `hdr-${randomBytes(12).toString('hex')}` };

  beforeAll(async () => {
    fake = await startVendorFake();
    const sink = new Writable({ write: (chunk: Buffer, _e, done) => (logLines.push(chunk.toString()), done()) });
    app = await startTestApp({ workers: true, config: { SSRF_ALLOWLIST: '127.0.0.1/8' }, logger: pino({ level: 'info' }, sink) });
    ws = await app.newWorkspace({ superuser: true });
    token = codecToken(app.config)!;
  });
  afterAll(async () => {
    await app?.close();
    await fake?.stop();
  });

  const codec = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    app.request('POST', path, { body, headers: { authorization: `Bearer ${token}`, ...headers } });

  it('keeps a proxy run’s bearer token and custom header out of the raw history, and decodes them with the codec', async () => {
    fake.on('POST', '/secret', { status: 200, body: { ok: true } });
    const params = {
      apiMethod: 'POST',
      apiURL: `${fake.url}/secret`,
      authenticationSelect: 'bearer',
      bearerToken: secrets.bearer,
      enableHeaders: true,
      headers: [{ name: 'X-Custom', value: secrets.header }],
    };
    const res = await app.request('POST', '/api/automation/execute', {
      body: { automationType: 'proxy', nodeParams: { params } },
      headers: { 'x-key': ws.superuserKey },
    });
    expect(res.status).toBe(200);
    expect(fake.received('POST', '/secret')[0]?.headers.authorization).toBe(`Bearer ${secrets.bearer}`);
    const workflowId = res.body.metadata.workflowId as string;
    await app.temporal.client.workflow.getHandle(workflowId).result();

    // As anyone reading Temporal's store sees it: a client without the codec.
    const raw = await new Client({ connection: app.temporal.connection, namespace: app.config.TEMPORAL_NAMESPACE }).workflow
      .getHandle(workflowId)
      .fetchHistory();
    const bytes = historyBytes(raw);
    for (const secret of Object.values(secrets)) expect(bytes.includes(secret)).toBe(false);
    const input = raw.events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!;
    expect(Buffer.from(input.metadata!.encoding!).toString()).toBe(ENCRYPTED_ENCODING);

    // With the codec (the key ring of ENCRYPTION_KEY), every secret reads again.
    const decoded = historyBytes(await decodeHistory(raw, new EncryptionCodec(keyringFromConfig(app.config))));
    for (const secret of Object.values(secrets)) expect(decoded.includes(secret)).toBe(true);

    // And through the endpoint, as the Web UI asks it.
    const asJson = {
      metadata: {
        encoding: Buffer.from(input.metadata!.encoding!).toString('base64'),
        'encryption-key-id': Buffer.from(input.metadata!['encryption-key-id']!).toString('base64'),
      },
      data: Buffer.from(input.data!).toString('base64'),
    };
    const out = await codec('/temporal-codec/decode', { payloads: [asJson] }, { 'x-namespace': 'default' });
    expect(out.status).toBe(200);
    const plain = Buffer.from(out.body.payloads[0].data, 'base64').toString();
    expect(plain).toContain(secrets.bearer);
    expect(Buffer.from(out.body.payloads[0].metadata.encoding, 'base64').toString()).toBe('json/plain');
  });

  it('decodes what the codec sealed, with the token as a header or a path segment; /encode is off by default', async () => {
    const payload = { metadata: { encoding: Buffer.from('json/plain').toString('base64') }, data: Buffer.from('"hello"').toString('base64') };
    const [sealed] = await new EncryptionCodec(keyringFromConfig(app.config)).encode([
      { metadata: { encoding: Buffer.from('json/plain') }, data: Buffer.from('"hello"') },
    ]);
    const asJson = {
      metadata: Object.fromEntries(Object.entries(sealed!.metadata!).map(([k, v]) => [k, Buffer.from(v!).toString('base64')])),
      data: Buffer.from(sealed!.data!).toString('base64'),
    };
    for (const dec of [
      await codec('/temporal-codec/decode', { payloads: [asJson] }),
      await app.request('POST', `/temporal-codec/${token}/decode`, { body: { payloads: [asJson] } }),
    ]) {
      expect(dec.status).toBe(200);
      expect(dec.body.payloads[0]).toEqual(payload);
    }
    // A payload that was never encrypted (an old history) comes back as it is.
    expect((await codec('/temporal-codec/decode', { payloads: [payload] })).body.payloads[0]).toEqual(payload);
    // Nothing here seals payloads for a token holder unless CODEC_SERVER_ENCODE is set.
    for (const path of ['/temporal-codec/encode', `/temporal-codec/${token}/encode`]) {
      const enc = await codec(path, { payloads: [payload] });
      expect(enc.status).toBe(404);
      expect(enc.body.status).toBe('failed');
    }
  });

  it('encodes with CODEC_SERVER_ENCODE, and what it encodes decodes', async () => {
    const encoding = await startTestApp({ config: { CODEC_SERVER_ENCODE: 'true' } });
    try {
      const payload = { metadata: { encoding: Buffer.from('json/plain').toString('base64') }, data: Buffer.from('"hello"').toString('base64') };
      const auth = { authorization: `Bearer ${codecToken(encoding.config)}` };
      const enc = await encoding.request('POST', '/temporal-codec/encode', { body: { payloads: [payload] }, headers: auth });
      expect(enc.status).toBe(200);
      expect(Buffer.from(enc.body.payloads[0].metadata.encoding, 'base64').toString()).toBe(ENCRYPTED_ENCODING);
      expect(Buffer.from(enc.body.payloads[0].data, 'base64').includes('hello')).toBe(false);
      const dec = await encoding.request('POST', '/temporal-codec/decode', { body: enc.body, headers: auth });
      expect(dec.body.payloads[0]).toEqual(payload);
    } finally {
      await encoding.close();
    }
  });

  it('never logs or echoes the path token: a wrong method (405), a misspelt operation (404), a disabled /encode', async () => {
    const from = logLines.length;
    const asked = [
      { method: 'GET', path: `/temporal-codec/${token}/decode`, status: 405 },
      { method: 'PUT', path: `/temporal-codec/${token}/decode`, status: 405 },
      { method: 'POST', path: `/temporal-codec/${token}/decodes`, status: 404 },
      { method: 'POST', path: `/temporal-codec/${token}/encode`, status: 404 },
      { method: 'POST', path: `/TEMPORAL-CODEC/${token}/x/y`, status: 404 },
      { method: 'POST', path: `/temporal-codec/${token}`, status: 404 },
    ];
    for (const { method, path, status } of asked) {
      const res = await fetch(app.url + path, {
        method,
        headers: { 'content-type': 'application/json' },
        body: method === 'GET' ? undefined : '{"payloads":[]}',
      });
      const text = await res.text();
      expect([path, res.status]).toEqual([path, status]);
      expect(JSON.parse(text)).toEqual({ status: 'failed', message: expect.stringContaining(':token') });
      expect(text).not.toContain(token);
      const headerValues: string[] = [];
      res.headers.forEach((v) => headerValues.push(v));
      expect(headerValues.join('\n')).not.toContain(token);
    }
    // The request lines name the route's template, and the reason quotes it the same way.
    const lines = logLines.slice(from).map((l) => JSON.parse(l) as { msg: string; path: string; status: number; reason?: string });
    const requests = lines.filter((l) => l.msg === 'request');
    expect(requests.map((l) => l.status)).toEqual(asked.map((a) => a.status));
    for (const l of requests) expect(l.path).toMatch(/^\/temporal-codec\/:token(\/|$)/i);
    expect(requests[0]!.reason).toMatch(/not allowed on \/temporal-codec\/:token\/decode/);
    expect(logLines.join('')).not.toContain(token);
  });

  it('answers 401, never 500, for a token of any length in any characters (header or path)', async () => {
    const body = { payloads: [] };
    // Same length in characters as the token, longer in bytes; and every other length around it.
    const tries = ['é'.repeat(token.length), 'é'.repeat(token.length / 2), '\u00ff'.repeat(token.length + 1), 'x', token.slice(1), `${token}é`];
    for (const wrong of tries) {
      const inHeader = await fetch(`${app.url}/temporal-codec/decode`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: Buffer.from(`Bearer ${wrong}`, 'latin1').toString('latin1') },
        body: JSON.stringify(body),
      });
      const inPath = await app.request('POST', `/temporal-codec/${encodeURIComponent(wrong)}/decode`, { body });
      expect([wrong, inHeader.status, inPath.status]).toEqual([wrong, 401, 401]);
      expect(await inHeader.json()).toEqual({ status: 'failed', message: 'Codec endpoint: missing or wrong token' });
      expect(inPath.body).toEqual({ status: 'failed', message: 'Codec endpoint: missing or wrong token' });
    }
  });

  it('refuses a missing or wrong token, and bad bodies, in the error shape', async () => {
    const body = { payloads: [] };
    for (const res of [
      await app.request('POST', '/temporal-codec/decode', { body }),
      await codec('/temporal-codec/decode', body, { authorization: `Bearer ${token}x` }),
      await app.request('POST', '/temporal-codec/not-the-token/decode', { body }),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ status: 'failed', message: expect.stringMatching(/token/) });
    }
    for (const bad of [{}, { payloads: [{ data: '%%%' }] }, '[1']) {
      const res = await codec('/temporal-codec/decode', bad);
      expect(res.status).toBe(400);
      expect(res.body.status).toBe('failed');
    }
    const tampered = await codec('/temporal-codec/decode', {
      payloads: [{ metadata: { encoding: Buffer.from(ENCRYPTED_ENCODING).toString('base64') }, data: Buffer.from('x'.repeat(64)).toString('base64') }],
    });
    expect(tampered.status).toBe(400);
    expect(tampered.body.message).toMatch(/does not decrypt/);
  });

  it('answers the Temporal UI’s CORS preflight for its origin only', async () => {
    const ui = `http://127.0.0.1:${app.config.TEMPORAL_UI_PORT}`;
    const ask = (origin: string) =>
      fetch(`${app.url}/temporal-codec/decode`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type,x-namespace' },
      });
    const ok = await ask(ui);
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe(ui);
    expect(ok.headers.get('access-control-allow-headers')).toMatch(/X-Namespace/i);
    const evil = await ask('https://evil.example');
    expect(evil.status).toBe(403);
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    const post = await codec('/temporal-codec/decode', { payloads: [] }, { origin: ui });
    expect(post.headers.get('access-control-allow-origin')).toBe(ui);
  });
});

describe('the dev stack’s Temporal Web UI decodes through the api', () => {
  it('starts the UI with the api’s codec endpoint (token in the path), which answers the UI', async () => {
    const [port, uiPort] = [await freePort(), await freePort()];
    const config = testConfig({ TEMPORAL_UI_PORT: String(uiPort), PORT: '3999' });
    const endpoint = uiCodecEndpoint(config)!;
    expect(endpoint).toBe(`http://127.0.0.1:3999/temporal-codec/${codecToken(config)}`);
    const server = await startTemporalDevServer({
      cli: await resolveTemporalCli({ say: () => undefined }),
      host: '127.0.0.1',
      port,
      uiPort,
      namespace: 'default',
      uiCodecEndpoint: endpoint,
    });
    try {
      const settings = (await (await fetch(`http://127.0.0.1:${uiPort}/api/v1/settings`)).json()) as { Codec: { Endpoint: string } };
      expect(settings.Codec.Endpoint).toBe(endpoint);
    } finally {
      await server.stop();
    }
  });
});
