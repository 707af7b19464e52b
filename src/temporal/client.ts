import { Client, Connection } from '@temporalio/client';

/** Connects to Temporal (namespace-bound client plus the raw connection for health and operator calls). */
export async function connectTemporal(address: string, namespace: string): Promise<{ connection: Connection; client: Client }> {
  const connection = await Connection.connect({ address, connectTimeout: '10s' });
  return { connection, client: new Client({ connection, namespace }) };
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
