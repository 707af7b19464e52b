import path from 'node:path';
import { defaultDataDir } from '../src/core/config';
import { clusterPkiFiles, temporalTlsEnv } from '../src/devstack/cluster-pki';
import { temporalConnectOptions } from '../src/temporal/connection-config';
import type { BenchContext } from './lib';

/**
 * A running `npm run cluster`'s Temporal frontend, as a benchmark connects to it: the operator certificate for the
 * bench's own client (it registers search attributes), the client certificate's TEMPORAL_* settings for the api.
 */
export function clusterTemporal(address: string, namespace: string, dataDir = process.env.SWITCHBOARD_DATA_DIR ?? defaultDataDir) {
  const dir = path.join(dataDir, 'cluster', 'pki');
  const pki = clusterPkiFiles(dir);
  const temporal: BenchContext['temporal'] = {
    address,
    namespace,
    ownServer: false,
    connect: temporalConnectOptions(temporalTlsEnv(pki, address, 'operator')),
  };
  return { temporal, processEnv: temporalTlsEnv(pki, address, 'client') };
}
