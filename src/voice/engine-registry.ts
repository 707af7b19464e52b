import type { Config } from '../core/config';
import { chatModelFromConfig } from '../llm/from-config';
import { ChatAgentModel, ScriptedAgentModel } from './agent-model';
import { localEngines, loadVoiceEngineSettings, type VoiceEngineSettings } from './engines/config';
import type { AgentModel, SttEngine, TtsEngine, VadEngine } from './engines/types';
import type { SessionEngines } from './session';
import type { VoiceSettings } from './settings';

/** Engines by kind and name (`local/piper`, `deepgram/nova-3`…): an agent's settings name them, the process holds them. */
export interface EngineRegistry {
  vad: Map<string, VadEngine>;
  stt: Map<string, SttEngine>;
  tts: Map<string, TtsEngine>;
  llm: Map<string, AgentModel>;
  /** The VAD every call uses (voice activity is not an agent setting). */
  vadName: string;
}

/** The speech engines a voice process holds, and what starts and stops those that hold processes or native handles. */
export interface SpeechEngines extends Omit<EngineRegistry, 'llm'> {
  /** Once at boot, before the process listens (off the call path). */
  ready?(): Promise<void>;
  /** At shutdown, once the streams have drained. */
  close?(): Promise<void>;
}

/** The names the agent defaults (src/voice/settings.ts) use for the embedded engines. */
export const EMBEDDED_ENGINE_NAMES = { vad: 'local/silero', stt: 'local/whisper-tiny.en', tts: 'local/piper' } as const;

/**
 * The embedded offline engines (docs/voice-engines.md) under the names the agent defaults use: Silero VAD, Whisper
 * tiny.en, and `local/piper` speaking with the Piper voice, or eSpeak NG when the voice's files are missing.
 */
export function embeddedEngines(settings: VoiceEngineSettings = loadVoiceEngineSettings(), env: NodeJS.ProcessEnv = process.env): SpeechEngines {
  const local = localEngines(settings, env);
  return {
    vad: new Map([[EMBEDDED_ENGINE_NAMES.vad, local.vad]]),
    vadName: EMBEDDED_ENGINE_NAMES.vad,
    stt: new Map([[EMBEDDED_ENGINE_NAMES.stt, local.stt]]),
    tts: new Map([[EMBEDDED_ENGINE_NAMES.tts, local.tts]]),
    ready: () => local.ready(),
    close: () => local.close(),
  };
}

/** What a registry holds, name → the engine behind it (`local/piper` → `local/piper-joe`), for logs and /readyz. */
export function describeEngines(registry: EngineRegistry): Record<'vad' | 'stt' | 'tts' | 'llm', Record<string, string>> {
  const names = <T extends { name: string }>(map: Map<string, T>) => Object.fromEntries([...map].map(([k, e]) => [k, e.name]));
  return { vad: names(registry.vad), stt: names(registry.stt), tts: names(registry.tts), llm: names(registry.llm) };
}

/** The model engines every voice process has: the scripted agent, and the OpenAI-compatible one when configured. */
export function modelEngines(config: Config): Map<string, AgentModel> {
  const models = new Map<string, AgentModel>([['scripted', new ScriptedAgentModel()]]);
  if (config.CHAT_MODEL_BASE_URL) models.set('openai', new ChatAgentModel(chatModelFromConfig(config)));
  return models;
}

/** An engine an agent names but this process does not have. */
class EngineMissingError extends Error {
  constructor(kind: string, name: string, have: string[]) {
    super(`no ${kind} engine named ${name} in this voice process (it has: ${have.join(', ') || 'none'})`);
    this.name = 'EngineMissingError';
  }
}

/** The engines a call's settings name. */
export function enginesFor(registry: EngineRegistry, settings: VoiceSettings): SessionEngines {
  const pick = <T>(kind: string, map: Map<string, T>, name: string): T => {
    const found = map.get(name);
    if (!found) throw new EngineMissingError(kind, name, [...map.keys()]);
    return found;
  };
  return {
    vad: pick('voice activity', registry.vad, registry.vadName),
    stt: pick('speech-to-text', registry.stt, settings.stt.engine),
    tts: pick('speech synthesis', registry.tts, settings.voice.engine),
    model: pick('agent model', registry.llm, settings.llm.engine),
  };
}
