import { connectNativeTemporal, connectTemporal, temporalHealthy } from '../../src/temporal/client';
import { testEnv } from '../helpers/env';
import { startTestApp, testConfig, type TestApp } from '../helpers/stack';
import { makeTestPki, startMtlsFront, type TestPki } from '../helpers/tls';
import { startVendorFake, type VendorFake } from '../helpers/vendor-fake';

jest.setTimeout(120_000);

// The dev server serves no TLS, so an mTLS front (client certificates required, checked against the test CA) stands
// before it, as a secured cluster's frontend would.
describe('the api and workers reach Temporal over mTLS from Temporal’s own settings', () => {
  let pki: TestPki;
  let front: Awaited<ReturnType<typeof startMtlsFront>>;
  let app: TestApp | undefined;
  let fake: VendorFake;
  const tlsSettings = () => ({
    TEMPORAL_ADDRESS: front.address,
    TEMPORAL_TLS_SERVER_CA_CERT_PATH: pki.caCert,
    TEMPORAL_TLS_SERVER_NAME: 'localhost',
    TEMPORAL_TLS_CLIENT_CERT_PATH: pki.clientCert,
    TEMPORAL_TLS_CLIENT_KEY_PATH: pki.clientKey,
  });

  beforeAll(async () => {
    pki = await makeTestPki();
    front = await startMtlsFront(pki, testEnv('temporalAddress'));
    fake = await startVendorFake();
  });
  afterAll(async () => {
    await app?.close();
    await front?.close();
    await fake?.stop();
    pki?.remove();
  });

  it('runs an automation end to end with the client certificate (api client and workers on the TLS front)', async () => {
    app = await startTestApp({ workers: true, config: { ...tlsSettings(), SSRF_ALLOWLIST: '127.0.0.1/8' } });
    const ws = await app.newWorkspace({ superuser: true });
    fake.on('POST', '/tls', { status: 200, body: { ok: true } });
    const body = { automationType: 'proxy', nodeParams: { params: { apiMethod: 'POST', apiURL: `${fake.url}/tls` } } };
    const res = await app.request('POST', '/api/automation/execute', { body, headers: { 'x-key': ws.superuserKey } });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    expect((await app.request('GET', '/readyz')).body.checks.temporal).toBe('ok');
    expect(front.handshakes.ok).toBeGreaterThan(0);
  });

  it('without a client certificate, or with one of another CA, the frontend refuses the client', async () => {
    const refusedBefore = front.handshakes.refused;
    const { TEMPORAL_TLS_CLIENT_CERT_PATH: _c, TEMPORAL_TLS_CLIENT_KEY_PATH: _k, ...noCert } = tlsSettings();
    await expect(connectTemporal(testConfig(noCert))).rejects.toThrow();
    const stranger = testConfig({ ...tlsSettings(), TEMPORAL_TLS_CLIENT_CERT_PATH: pki.strangerCert, TEMPORAL_TLS_CLIENT_KEY_PATH: pki.strangerKey });
    await expect(connectNativeTemporal(stranger)).rejects.toThrow();
    expect(front.handshakes.refused).toBeGreaterThan(refusedBefore);
    // The same settings with the right certificate connect.
    const ok = await connectTemporal(testConfig(tlsSettings()));
    try {
      expect(await temporalHealthy(ok.connection)).toBe(true);
    } finally {
      await ok.connection.close();
    }
  });
});
