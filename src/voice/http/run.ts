import { loadConfigOrExit } from '../../core/config';
import { handleShutdownSignals } from '../../core/shutdown';
import { embeddedEngines } from '../engine-registry';
import { startVoice } from './main';

// The voice process's entry point (`node dist/src/voice/http/run.js`; `npm start` spawns it).
const config = loadConfigOrExit();
const say = (line: string) => process.stderr.write(`[voice] ${line}\n`);
// The embedded offline engines (started by startVoice before it listens, closed after the drain); the agent model
// engines come from the configuration.
Promise.resolve()
  .then(() => startVoice(config, { engines: embeddedEngines() }))
  .then(
    (voice) => {
      handleShutdownSignals({ stop: () => voice.close(), watchdogMs: config.VOICE_DRAIN_MS + 10_000, say });
    },
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
