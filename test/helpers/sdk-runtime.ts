// Each test file's Temporal SDK runtime logs through pino at TEST_LOG_LEVEL (silent unless asked), like the app's own
// logs: the SDK's default console logger printed every worker state change of every test into the CI log.
import { createLogger } from '../../src/telemetry/log';
import { installSdkRuntime } from '../../worker/runtime';

installSdkRuntime(createLogger(process.env.TEST_LOG_LEVEL ?? 'silent', 'temporal-sdk'));
