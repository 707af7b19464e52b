/**
 * Settings of the embedded offline engines, declared as src/core/config.ts declares the others (zod over the
 * environment, defaults that work out of the box): each points an engine at the user's own model files; unset, the
 * files the set-up installed in ~/.cache/switchboard/voice-<version> are used. (To be merged into the main schema
 * when the voice process reads its configuration there.)
 */
import { z } from 'zod';
import { voiceEngineFiles } from '../../devstack/voice-engines';
import { EspeakTtsEngine } from './espeak-tts';
import { PiperTtsEngine } from './piper-tts';
import { SileroVadEngine } from './silero-vad';
import type { EngineLifecycle, SttEngine, TtsEngine, VadEngine } from './types';
import { WhisperSttEngine } from './whisper-stt';

const threads = z.coerce.number().int().min(1).max(64);

export const voiceEngineFields = z.object({
  /** Silero VAD v5 weights (silero_vad.onnx). */
  VOICE_VAD_MODEL: z.string().min(1).optional(),
  /** Speech probability above which a 32 ms window is speech. */
  VOICE_VAD_THRESHOLD: z.coerce.number().gt(0).lt(1).default(0.5),
  /** A CTranslate2 Whisper model folder (model.bin, tokenizer.json). */
  VOICE_STT_MODEL_DIR: z.string().min(1).optional(),
  /** The Python (with ctranslate2, tokenizers, numpy) that runs the speech worker. */
  VOICE_STT_PYTHON: z.string().min(1).optional(),
  VOICE_STT_THREADS: threads.default(2),
  /** Re-decode for a partial transcript after this much new speech (ms); 0: finals only. */
  VOICE_STT_PARTIAL_MS: z.coerce.number().int().min(0).default(400),
  /** A Piper voice (.onnx with sherpa-onnx metadata) and its tokens.txt. */
  VOICE_TTS_MODEL: z.string().min(1).optional(),
  VOICE_TTS_TOKENS: z.string().min(1).optional(),
  /** espeak-ng-data for the Piper voice's phonemizer (default: Debian's). */
  VOICE_TTS_ESPEAK_DATA: z.string().min(1).optional(),
  VOICE_TTS_THREADS: threads.default(1),
  /** piper: the Piper voice (eSpeak NG when its files are missing); espeak: eSpeak NG always. */
  VOICE_TTS_ENGINE: z.enum(['piper', 'espeak']).default('piper'),
});

export type VoiceEngineSettings = z.infer<typeof voiceEngineFields>;

export const loadVoiceEngineSettings = (env: NodeJS.ProcessEnv = process.env): VoiceEngineSettings => voiceEngineFields.parse(env);

export interface LocalEngines {
  vad: VadEngine;
  stt: SttEngine & EngineLifecycle;
  tts: TtsEngine;
  /** Starts what holds processes or native handles (the speech worker, the Piper voice). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/** The embedded engines as the settings say; the Piper voice falls back to eSpeak NG when its files are missing. */
export function localEngines(s: VoiceEngineSettings, env: NodeJS.ProcessEnv = process.env): LocalEngines {
  const files = voiceEngineFiles(env);
  const vad = new SileroVadEngine({ model: s.VOICE_VAD_MODEL ?? files.sileroModel, threshold: s.VOICE_VAD_THRESHOLD });
  const stt = new WhisperSttEngine({
    python: s.VOICE_STT_PYTHON ?? files.whisperPython,
    modelDir: s.VOICE_STT_MODEL_DIR ?? files.whisperModelDir,
    threads: s.VOICE_STT_THREADS,
    partialIntervalMs: s.VOICE_STT_PARTIAL_MS,
  });
  const piper = {
    model: s.VOICE_TTS_MODEL ?? files.piperModel,
    tokens: s.VOICE_TTS_TOKENS ?? files.piperTokens,
    espeakData: s.VOICE_TTS_ESPEAK_DATA ?? files.espeakData,
    threads: s.VOICE_TTS_THREADS,
  };
  const tts: TtsEngine & Partial<EngineLifecycle> =
    s.VOICE_TTS_ENGINE === 'piper' && PiperTtsEngine.available(piper) ? new PiperTtsEngine(piper) : new EspeakTtsEngine({ program: files.espeakProgram });
  return {
    vad,
    stt,
    tts,
    ready: async () => {
      await Promise.all([stt.ready(), tts.ready?.()]);
    },
    close: async () => {
      await Promise.all([stt.close(), tts.close?.()]);
    },
  };
}
