import type { ClusterPki } from './cluster-pki';

/** Where the Temporal server listens: the frontend's gRPC port, and its other services' ports (free ones). */
export interface TemporalServerPorts {
  frontend: number;
  frontendHttp: number;
  frontendMembership: number;
  history: number;
  historyMembership: number;
  matching: number;
  matchingMembership: number;
  worker: number;
  workerMembership: number;
}

/** The server's PostgreSQL: both of its databases live on this server and log in as this user. */
export interface TemporalPersistence {
  host: string;
  port: number;
  user: string;
  password: string;
}

export const TEMPORAL_DATABASES = { default: 'temporal', visibility: 'temporal_visibility' } as const;

/** The SQL plugin: pgx measured faster than lib/pq (postgres12) here, and faster than the dev server on SQLite. */
export const SQL_PLUGIN = 'postgres12_pgx';

const q = (s: string) => JSON.stringify(s);

function datastore(name: string, db: TemporalPersistence, maxConns: number): string {
  return `    ${name}:
      sql:
        pluginName: ${q(SQL_PLUGIN)}
        databaseName: ${q(name === 'default' ? TEMPORAL_DATABASES.default : TEMPORAL_DATABASES.visibility)}
        connectAddr: ${q(`${db.host}:${db.port}`)}
        connectProtocol: "tcp"
        user: ${q(db.user)}
        password: ${q(db.password)}
        maxConns: ${maxConns}
        maxIdleConns: ${maxConns}
        maxConnLifetime: "1h"`;
}

const service = (grpc: number, membership: number, http?: number) =>
  `    rpc:\n      grpcPort: ${grpc}\n      membershipPort: ${membership}\n      bindOnLocalHost: true${http ? `\n      httpPort: ${http}` : ''}`;

/**
 * The server's configuration (the shape of the server's config/development-postgres12.yaml): PostgreSQL persistence
 * and visibility, every service on loopback, mTLS on the frontend and between the services, certificates re-read
 * every minute (a renewed certificate needs no restart).
 */
export function temporalServerConfig(o: { ports: TemporalServerPorts; db: TemporalPersistence; pki: ClusterPki; dynamicConfigFile: string }): string {
  const { ports: p, pki } = o;
  const serverTls = `        requireClientAuth: true
        certFile: ${q(pki.serverCert)}
        keyFile: ${q(pki.serverKey)}
        clientCaFiles: [${q(pki.caCert)}]`;
  const clientTls = `        serverName: "localhost"
        rootCaFiles: [${q(pki.caCert)}]`;
  return `log:
  stdout: true
  level: warn

persistence:
  defaultStore: default
  visibilityStore: visibility
  numHistoryShards: 4
  datastores:
${datastore('default', o.db, 20)}
${datastore('visibility', o.db, 4)}

global:
  membership:
    maxJoinDuration: 30s
    broadcastAddress: "127.0.0.1"
  tls:
    refreshInterval: 1m
    internode:
      server:
${serverTls}
      client:
${clientTls}
    frontend:
      server:
${serverTls}
      client:
${clientTls}
    systemWorker:
      certFile: ${q(pki.serverCert)}
      keyFile: ${q(pki.serverKey)}
      client:
${clientTls}

services:
  frontend:
${service(p.frontend, p.frontendMembership, p.frontendHttp)}
  history:
${service(p.history, p.historyMembership)}
  matching:
${service(p.matching, p.matchingMembership)}
  worker:
${service(p.worker, p.workerMembership)}

clusterMetadata:
  enableGlobalNamespace: false
  failoverVersionIncrement: 10
  masterClusterName: "active"
  currentClusterName: "active"
  clusterInformation:
    active:
      enabled: true
      initialFailoverVersion: 1
      rpcName: "frontend"
      rpcAddress: "localhost:${p.frontend}"

dcRedirectionPolicy:
  policy: "noop"

dynamicConfigClient:
  filepath: ${q(o.dynamicConfigFile)}
  pollInterval: "10s"
`;
}

/** Dynamic config: search attributes visible as soon as they are added (as the dev server does). */
export const TEMPORAL_DYNAMIC_CONFIG = `system.forceSearchAttributesCacheRefreshOnRead:
  - value: true
`;

/** The Temporal UI server's configuration: the frontend over mTLS with the operator certificate, payloads decoded by the api. */
export function temporalUiConfig(o: { port: number; frontend: string; pki: ClusterPki; namespace: string; codecEndpoint?: string }): string {
  return `temporalGrpcAddress: ${q(o.frontend)}
host: "127.0.0.1"
port: ${o.port}
enableUi: true
defaultNamespace: ${q(o.namespace)}
refreshInterval: 1m
cors:
  cookieInsecure: true
  allowOrigins: []
tls:
  caFile: ${q(o.pki.caCert)}
  certFile: ${q(o.pki.operatorCert)}
  keyFile: ${q(o.pki.operatorKey)}
  serverName: "localhost"
  enableHostVerification: true
codec:
  endpoint: ${q(o.codecEndpoint ?? '')}
`;
}
