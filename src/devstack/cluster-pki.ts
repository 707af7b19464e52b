import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { issueCertificate, makeCa, pkiFiles, type PkiFiles } from './openssl-pki';

/**
 * PEM files of the cluster's own CA and the certificates it issued, all in one folder: the server certificate is the
 * frontend's and the nodes' (server and client use, for internode mTLS), the client certificate what the api and
 * worker processes present (CN switchboard).
 */
export interface ClusterPki extends PkiFiles {
  /** What the setup step (namespace, search attributes) and the Temporal UI present (CN switchboard-operator). */
  operatorCert: string;
  operatorKey: string;
}

const EXTENSIONS = {
  server: 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth,clientAuth\nkeyUsage=digitalSignature\n',
  client: 'extendedKeyUsage=clientAuth\nkeyUsage=digitalSignature\n',
} as const;

/** The PKI's file names under dir (what clusterPki makes there). */
export const clusterPkiFiles = (dir: string): ClusterPki => ({
  ...pkiFiles(dir),
  operatorCert: path.join(dir, 'operator.pem'),
  operatorKey: path.join(dir, 'operator.key'),
});

/**
 * Makes (or reuses) the cluster's PKI under dir with the openssl CLI: a P-256 CA valid for ten years and the
 * certificates it signs, valid for one year. Keys are readable by their owner only.
 */
export async function clusterPki(dir: string): Promise<ClusterPki> {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  await makeCa(dir, { name: 'ca', cn: 'Switchboard cluster CA', days: 3650 });
  const issue = (name: string, cn: string, ext: string) => issueCertificate(dir, { name, cn, ca: 'ca', ext, days: 365 });
  await issue('server', 'localhost', EXTENSIONS.server);
  await issue('client', 'switchboard', EXTENSIONS.client);
  await issue('operator', 'switchboard-operator', EXTENSIONS.client);
  return clusterPkiFiles(dir);
}

/** The TEMPORAL_* client settings that connect with a certificate of the PKI (the SDKs' and the CLI's names). */
export function temporalTlsEnv(pki: ClusterPki, address: string, as: 'client' | 'operator' = 'client'): Record<string, string> {
  return {
    TEMPORAL_ADDRESS: address,
    TEMPORAL_TLS: 'true',
    TEMPORAL_TLS_CLIENT_CERT_PATH: as === 'client' ? pki.clientCert : pki.operatorCert,
    TEMPORAL_TLS_CLIENT_KEY_PATH: as === 'client' ? pki.clientKey : pki.operatorKey,
    TEMPORAL_TLS_SERVER_CA_CERT_PATH: pki.caCert,
    TEMPORAL_TLS_SERVER_NAME: 'localhost',
  };
}
