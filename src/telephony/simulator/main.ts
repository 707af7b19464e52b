import { parseArgs } from 'node:util';
import { loadConfigOrExit } from '../../core/config';
import { startSimulator } from './server';

/**
 * `node bin/run-ts.js src/telephony/simulator/main.ts [--port N] [--host H] [--speed S] [--state FILE]`: runs the
 * carrier simulator, by default on TELEPHONY_BASE_URL's port, with TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN as its
 * account; with --state it keeps its calls in FILE across restarts.
 */
async function main() {
  const config = loadConfigOrExit();
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: new URL(config.TELEPHONY_BASE_URL).port || '80' },
      host: { type: 'string', default: '127.0.0.1' },
      speed: { type: 'string', default: '1' },
      state: { type: 'string' },
    },
  });
  const port = Number(values.port);
  const speed = Number(values.speed);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number (got ${values.port})`);
  if (!(speed > 0)) throw new Error(`--speed must be a positive number (got ${values.speed})`);
  const sim = await startSimulator({
    port,
    host: values.host,
    speed,
    authToken: config.TWILIO_AUTH_TOKEN,
    accountSid: config.TWILIO_ACCOUNT_SID,
    stateFile: values.state,
  });
  process.stdout.write(`carrier simulator listening on ${sim.url} (account ${sim.accountSid}, speed ${speed}); ledger at ${sim.url}/ledger\n`);
  const stop = () => void sim.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: Error) => {
  process.stderr.write(`${err.message}\n`);
  process.exit(2);
});
