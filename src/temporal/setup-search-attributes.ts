import { Connection } from '@temporalio/client';
import { TEMPORAL_ENV_SETTINGS, temporalConnectOptions, temporalProfile, TemporalSettingError, type TemporalEnv } from './connection-config';
import { ensureSearchAttributes, SA } from './search-attributes';

/**
 * The search-attribute setup job (`node dist/src/temporal/setup-search-attributes.js`): registers every attribute of
 * SA in the namespace, with operator rights, over the same TEMPORAL_* settings as the api and worker. Idempotent.
 */
export async function setupSearchAttributes(env: TemporalEnv): Promise<{ namespace: string; added: string[]; all: string[] }> {
  const namespace = env.TEMPORAL_NAMESPACE ?? temporalProfile(env).namespace ?? 'default';
  const connection = await Connection.connect({ ...temporalConnectOptions(env), connectTimeout: '10s' });
  try {
    const added = await ensureSearchAttributes(connection, namespace);
    return { namespace, added, all: Object.values(SA).map((k) => k.name) };
  } finally {
    await connection.close();
  }
}

if (require.main === module) {
  const env: TemporalEnv = {};
  for (const key of TEMPORAL_ENV_SETTINGS) if (process.env[key]) env[key] = process.env[key];
  setupSearchAttributes(env).then(
    (r) => console.log(`search attributes of namespace ${r.namespace}: ${r.all.join(', ')} (added now: ${r.added.join(', ') || 'none'})`),
    (err: Error) => {
      console.error(err instanceof TemporalSettingError ? `${err.setting}: ${err.message}` : `search attribute setup failed: ${err.message}`);
      process.exit(1);
    },
  );
}
