import { Client, Connection } from '@temporalio/client';
import type { DataConverter } from '@temporalio/common';
import { NativeConnection } from '@temporalio/worker';
import { temporalEnv, type Config } from '../core/config';
import { keyringFromConfig } from '../crypto/keyring';
import { tracingClientInterceptors } from '../telemetry/temporal';
import { encryptingDataConverter } from './codec';
import { temporalConnectOptions, type TEMPORAL_ENV_SETTINGS } from './connection-config';
import { updateRetryInterceptor } from './update-retry';

/** The settings a Temporal connection is made from: Temporal's own (address, namespace, TLS, API key) and the key ring. */
export type TemporalSettings = Pick<
  Config,
  (typeof TEMPORAL_ENV_SETTINGS)[number] | 'NODE_ENV' | 'SWITCHBOARD_DATA_DIR' | 'ENCRYPTION_KEY' | 'ENCRYPTION_KEYS_PREVIOUS'
>;

/** The data converter of every client and worker: payloads encrypted with the keyring of ENCRYPTION_KEY(S). */
export function temporalDataConverter(config: TemporalSettings): DataConverter {
  return encryptingDataConverter(keyringFromConfig(config));
}

/**
 * A namespace-bound client on a connection (a worker's NativeConnection too), with the encrypting data converter; its
 * Updates are sent again when a failed workflow task aborted them (update-retry.ts), each send traced when tracing is on.
 */
export function temporalClient(connection: Connection | NativeConnection, config: TemporalSettings): Client {
  const workflow = [updateRetryInterceptor, ...tracingClientInterceptors()];
  return new Client({ connection, namespace: config.TEMPORAL_NAMESPACE, dataConverter: temporalDataConverter(config), interceptors: { workflow } });
}

/** Connects to Temporal (namespace-bound client plus the raw connection for health and operator calls). */
export async function connectTemporal(config: TemporalSettings): Promise<{ connection: Connection; client: Client }> {
  const connection = await Connection.connect({ ...temporalConnectOptions(temporalEnv(config)), connectTimeout: '10s' });
  return { connection, client: temporalClient(connection, config) };
}

/** The workers' connection to Temporal (same settings as connectTemporal). */
export function connectNativeTemporal(config: TemporalSettings): Promise<NativeConnection> {
  return NativeConnection.connect(temporalConnectOptions(temporalEnv(config)));
}

/** True when the frontend answers its health check within timeoutMs. */
export async function temporalHealthy(connection: Connection, timeoutMs = 2000): Promise<boolean> {
  try {
    const res = await connection.withDeadline(Date.now() + timeoutMs, () => connection.healthService.check({}));
    return res.status === 1; // SERVING
  } catch {
    return false;
  }
}
