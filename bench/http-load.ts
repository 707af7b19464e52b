// The benchmarks' HTTP load generator: an undici pool of keep-alive connections. At saturation the load generator
// shares the machine's two cores with the system under test; undici spends about half the CPU per request of a
// node:http Agent (35 against 80 µs measured here), so less of the api side's figure is the generator's own cost.
import { Pool } from 'undici';
import type { BenchContext } from './lib';

/** A JSON POST client for one local server: resolves with status and body text; keeps `connections` sockets open. */
export function jsonPoster(port: number, connections: number, defer: BenchContext['defer']) {
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections, pipelining: 1, keepAliveTimeout: 120_000 });
  defer(() => pool.close());
  return async (path: string, body: string, headers: Record<string, string>): Promise<{ status: number; text: string }> => {
    const res = await pool.request({ method: 'POST', path, headers: { 'content-type': 'application/json', ...headers }, body });
    return { status: res.statusCode, text: await res.body.text() };
  };
}
