import { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { randomBytes } from 'node:crypto';
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
  const secrets = { bearer: `tok-${randomBytes(12).toString('hex')}`, header: `hdr-${randomBytes(12).toString('hex')}` };

  beforeAll(async () => {
    fake = await startVendorFake();
    app = await startTestApp({ workers: true, config: { SSRF_ALLOWLIST: '127.0.0.1/8' } });
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

  it('encodes and decodes through the endpoint, with the token as a header or a path segment', async () => {
    const payload = { metadata: { encoding: Buffer.from('json/plain').toString('base64') }, data: Buffer.from('"hello"').toString('base64') };
    const enc = await codec('/temporal-codec/encode', { payloads: [payload] });
    expect(enc.status).toBe(200);
    expect(Buffer.from(enc.body.payloads[0].metadata.encoding, 'base64').toString()).toBe(ENCRYPTED_ENCODING);
    expect(Buffer.from(enc.body.payloads[0].data, 'base64').includes('hello')).toBe(false);
    const dec = await app.request('POST', `/temporal-codec/${token}/decode`, { body: enc.body });
    expect(dec.status).toBe(200);
    expect(dec.body.payloads[0]).toEqual(payload);
    // A payload that was never encrypted (an old history) comes back as it is.
    expect((await codec('/temporal-codec/decode', { payloads: [payload] })).body.payloads[0]).toEqual(payload);
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
