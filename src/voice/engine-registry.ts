import type { Config } from '../core/config';
import { chatModelFromConfig } from '../llm/from-config';
import { ChatAgentModel, ScriptedAgentModel } from './agent-model';
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
