import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { issueCertificate, makeCa, pkiFiles, type PkiFiles } from '../../src/devstack/openssl-pki';

/** PEM files of a throwaway CA, a server certificate for localhost/127.0.0.1 and a client certificate, in dir. */
export interface TestPki extends PkiFiles {
  /** A second CA's client certificate and key: well formed, but not trusted by the server. */
  strangerCert: string;
  strangerKey: string;
  remove(): void;
}

/** Generates the PKI with the openssl CLI (a test-only tool; the service itself reads PEM files only). */
export async function makeTestPki(): Promise<TestPki> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'switchboard-pki-'));
  for (const ca of ['ca', 'stranger-ca']) await makeCa(dir, { name: ca, cn: ca, days: 2 });
  const issue = (name: string, ca: string, ext: string) => issueCertificate(dir, { name, cn: name, ca, ext, days: 2 });
  await issue('server', 'ca', 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  await issue('client', 'ca', 'extendedKeyUsage=clientAuth\n');
  await issue('stranger', 'stranger-ca', 'extendedKeyUsage=clientAuth\n');
  return {
    ...pkiFiles(dir),
    strangerCert: path.join(dir, 'stranger.pem'),
    strangerKey: path.join(dir, 'stranger.key'),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * An mTLS front for a plaintext Temporal frontend (the dev server serves no TLS): TLS with HTTP/2 by ALPN, client
 * certificates required and checked against the PKI's CA, every accepted connection piped to target. Port 0.
 */
export async function startMtlsFront(
  pki: TestPki,
  target: string,
): Promise<{ address: string; handshakes: { ok: number; refused: number }; close(): Promise<void> }> {
  const [host, port] = target.split(':') as [string, string];
  const handshakes = { ok: 0, refused: 0 };
  const sockets = new Set<net.Socket>();
  const server = tls.createServer(
    {
      key: readFileSync(pki.serverKey),
      cert: readFileSync(pki.serverCert),
      ca: readFileSync(pki.caCert),
      requestCert: true,
      rejectUnauthorized: true,
      ALPNProtocols: ['h2'],
    },
    (client) => {
      handshakes.ok++;
      const upstream = net.connect(Number(port), host);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
        s.on('error', () => s.destroy());
      }
      client.pipe(upstream).pipe(client);
    },
  );
  server.on('tlsClientError', () => handshakes.refused++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    address: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    handshakes,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
