import type { ConversationRow } from './db/context';
import { DEFAULT_VOICE_SETTINGS, renderTemplate, type VoiceSettings } from './settings';

/** The values `{{…}}` placeholders take: request_data keys, then the lead's custom fields, then its fields and names. */
function templateVars(row: ConversationRow): Record<string, unknown> {
  return {
    ...(row.request_data ?? {}),
    ...(row.custom_fields ?? {}),
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    company: row.company ?? row.workspace_name,
    agent_name: row.agent_name ?? 'your assistant',
    workspace_name: row.workspace_name,
  };
}

/** The call's settings: the agent's where set, the defaults elsewhere, the first message and prompt rendered. */
export function settingsFor(row: ConversationRow, base: VoiceSettings = DEFAULT_VOICE_SETTINGS): VoiceSettings {
  const vars = templateVars(row);
  return {
    ...base,
    prompt: renderTemplate(row.prompt ?? base.prompt, vars),
    firstMessage: renderTemplate(row.first_message ?? base.firstMessage, vars),
    language: row.language ?? base.language,
    voice: { engine: row.voice?.engine ?? base.voice.engine, voiceId: row.voice?.voice_id ?? base.voice.voiceId },
    stt: { engine: row.stt?.engine ?? base.stt.engine },
    llm: { engine: row.llm?.engine ?? base.llm.engine },
    interruptible: row.interruptible ?? base.interruptible,
    silenceTimeoutS: row.silence_timeout_s ?? base.silenceTimeoutS,
    maxDurationS: row.max_duration_s ?? base.maxDurationS,
    endCallPhrases: row.end_call_phrases ?? base.endCallPhrases,
  };
}
