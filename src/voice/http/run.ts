import { loadConfigOrExit } from '../../core/config';
import { handleShutdownSignals } from '../../core/shutdown';
import { startVoice } from './main';

// The voice process's entry point (`node dist/src/voice/http/run.js`; `npm start` spawns it).
const config = loadConfigOrExit();
const say = (line: string) => process.stderr.write(`[voice] ${line}\n`);
// The embedded speech engines register here once they are in the build; until then only the model engines exist.
startVoice(config, { engines: { vad: new Map(), stt: new Map(), tts: new Map(), vadName: 'local/silero' } }).then(
  (voice) => {
    handleShutdownSignals({ stop: () => voice.close(), watchdogMs: config.VOICE_DRAIN_MS + 10_000, say });
  },
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
