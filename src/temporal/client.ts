import { Client, Connection } from '@temporalio/client';

/** Connects to Temporal; the connection is lazy about failures, so callers check health when they need to. */
export async function connectTemporal(address: string, namespace: string): Promise<{ connection: Connection; client: Client }> {
  const connection = await Connection.connect({ address, connectTimeout: '10s' });
  return { connection, client: new Client({ connection, namespace }) };
}

/** Resolves when the frontend answers its health check. */
export async function temporalHealthy(connection: Connection): Promise<boolean> {
  try {
    const res = await connection.healthService.check({}, );
    return res.status === 1; // SERVING
  } catch {
    return false;
  }
}
