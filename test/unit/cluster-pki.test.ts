import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clusterPki } from '../../src/devstack/cluster-pki';

describe('the cluster PKI (openssl)', () => {
  const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'switchboard-cluster-pki-')), 'pki');
  afterAll(() => rmSync(path.dirname(dir), { recursive: true, force: true }));

  it('makes a CA and the server, client and operator certificates it signs, and reuses them on the next start', async () => {
    const pki = await clusterPki(dir);
    const cert = (file: string) => new X509Certificate(readFileSync(file));
    const ca = cert(pki.caCert);
    expect(ca.subject).toBe('CN=Switchboard cluster CA');
    expect(ca.verify(ca.publicKey)).toBe(true);
    const server = cert(pki.serverCert);
    expect([server.subject, server.subjectAltName, server.verify(ca.publicKey), server.checkHost('localhost'), server.checkIP('127.0.0.1')]).toEqual([
      'CN=localhost',
      'DNS:localhost, IP Address:127.0.0.1',
      true,
      'localhost',
      '127.0.0.1',
    ]);
    expect([pki.clientCert, pki.operatorCert].map((f) => [cert(f).subject, cert(f).verify(ca.publicKey)])).toEqual([
      ['CN=switchboard', true],
      ['CN=switchboard-operator', true],
    ]);
    expect(statSync(dir).mode & 0o777).toBe(0o700);

    const again = await clusterPki(dir);
    expect(again).toEqual(pki);
    expect(cert(again.serverCert).fingerprint256).toBe(server.fingerprint256);
  });
});
