/**
 * Installs the embedded offline voice engines into ~/.cache/switchboard/voice-<version> (src/devstack/voice-engines.ts):
 * `node bin/run-ts.js scripts/voice-engines.ts`. Idempotent; instant once installed. Prints where each engine's files
 * are, one `name=path` a line. eSpeak NG (Debian's espeak-ng) is installed by .ci/run with apt.
 */
import { ensureVoiceEngines } from '../src/devstack/voice-engines';

ensureVoiceEngines({ say: (line) => process.stderr.write(`[voice-engines] ${line}\n`) }).then(
  (files) => {
    for (const [name, value] of Object.entries(files)) process.stdout.write(`${name}=${value ?? ''}\n`);
    if (!files.espeakData)
      process.stderr.write('[voice-engines] espeak-ng is not installed: the Piper voice needs its data (Debian: apt-get install espeak-ng)\n');
  },
  (err: Error) => {
    process.stderr.write(`[voice-engines] ${err.message}\n`);
    process.exit(1);
  },
);
