import { Runtime, type TelemetryOptions } from '@temporalio/worker';
import type { Logger } from '../src/telemetry/log';
import { sdkLogger } from './sdk-logger';

let installed = false;

/**
 * Installs the SDK runtime once per process, its logs going through pino (not the SDK's console logger, whose
 * lines would interleave with the JSON logs); metrics only where the caller owns a metrics port.
 */
export function installSdkRuntime(logger: Logger, metrics?: TelemetryOptions['metrics']): void {
  if (installed) return;
  installed = true;
  Runtime.install({ logger: sdkLogger(logger), ...(metrics ? { telemetryOptions: { metrics } } : {}) });
}
