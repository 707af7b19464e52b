import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);

/** PEM files in one folder: a CA, a server certificate (localhost, 127.0.0.1) and a client certificate it signed. */
export interface PkiFiles {
  dir: string;
  caCert: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
}

/** The PkiFiles of a folder in which makeCa and issueCertificate made `ca`, `server` and `client`. */
export const pkiFiles = (dir: string): PkiFiles => ({
  dir,
  caCert: path.join(dir, 'ca.pem'),
  serverCert: path.join(dir, 'server.pem'),
  serverKey: path.join(dir, 'server.key'),
  clientCert: path.join(dir, 'client.pem'),
  clientKey: path.join(dir, 'client.key'),
});

const openssl = (dir: string, args: string[]) => exec('openssl', args, { cwd: dir });
const NEW_P256_KEY = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];

/** Makes a self-signed P-256 CA, `<name>.pem` and `<name>.key` in dir, with the openssl CLI; keeps one already there. */
export async function makeCa(dir: string, ca: { name: string; cn: string; days: number }): Promise<void> {
  if (existsSync(path.join(dir, `${ca.name}.pem`))) return;
  await openssl(dir, [
    'req',
    '-x509',
    ...NEW_P256_KEY,
    '-keyout',
    `${ca.name}.key`,
    '-out',
    `${ca.name}.pem`,
    '-days',
    String(ca.days),
    '-subj',
    `/CN=${ca.cn}`,
  ]);
}

/**
 * Issues a P-256 certificate, `<name>.pem` and `<name>.key` in dir, signed by the CA `<ca>.pem` there, with the
 * extensions ext (openssl extfile lines); keeps one already there.
 */
export async function issueCertificate(dir: string, cert: { name: string; cn: string; ca: string; ext: string; days: number }): Promise<void> {
  const { name, ca } = cert;
  if (existsSync(path.join(dir, `${name}.pem`))) return;
  await openssl(dir, ['req', ...NEW_P256_KEY, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${cert.cn}`]);
  writeFileSync(path.join(dir, `${name}.ext`), cert.ext);
  const sign = ['-CA', `${ca}.pem`, '-CAkey', `${ca}.key`, '-CAcreateserial'];
  await openssl(dir, ['x509', '-req', '-in', `${name}.csr`, ...sign, '-days', String(cert.days), '-out', `${name}.pem`, '-extfile', `${name}.ext`]);
}
