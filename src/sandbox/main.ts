import { parseArgs } from 'node:util';
import { loadConfigOrExit } from '../core/config';
import { startVendorSandbox } from './server';

/**
 * `node bin/run-ts.js src/sandbox/main.ts [--port N] [--host H]`: runs the vendor sandbox, by default on
 * VENDOR_SANDBOX_URL's port.
 */
async function main() {
  const config = loadConfigOrExit();
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: config.VENDOR_SANDBOX_URL ? new URL(config.VENDOR_SANDBOX_URL).port || '80' : '0' },
      host: { type: 'string', default: '127.0.0.1' },
    },
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number (got ${values.port})`);
  const sandbox = await startVendorSandbox({ port, host: values.host });
  process.stdout.write(`vendor sandbox listening on ${sandbox.url} (slack, hubspot, google_calendar); ledger at ${sandbox.url}/ledger\n`);
  const stop = () => void sandbox.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: Error) => {
  process.stderr.write(`${err.message}\n`);
  process.exit(2);
});
