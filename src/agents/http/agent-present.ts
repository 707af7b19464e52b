import type { AgentDetailRow } from '../db/agent-admin';
import { DEFAULT_VOICE_SETTINGS as D } from '../../voice/settings';
import type { PhoneNumberRow } from '../../workspaces/db/phone-numbers';

/** An agent row as the api shows it. */
export const presentAgent = (a: AgentDetailRow) => ({
  id: a.id,
  name: a.name,
  profile_picture: a.profile_picture,
  transfer_number: a.transfer_number,
  call_window: a.call_window,
  phone_group_id: a.phone_group_id,
  numbers: a.numbers,
  created_at: a.created_at.toISOString(),
  // The conversation settings in effect: the agent's own, the voice runtime's defaults elsewhere.
  prompt: a.prompt ?? D.prompt,
  first_message: a.first_message ?? D.firstMessage,
  voice: { engine: a.voice?.engine ?? D.voice.engine, voice_id: a.voice?.voice_id ?? D.voice.voiceId },
  language: a.language ?? D.language,
  stt: a.stt ?? D.stt,
  llm: a.llm ?? D.llm,
  interruptible: a.interruptible ?? D.interruptible,
  silence_timeout_s: a.silence_timeout_s ?? D.silenceTimeoutS,
  max_duration_s: a.max_duration_s ?? D.maxDurationS,
  end_call_phrases: a.end_call_phrases ?? D.endCallPhrases,
});

/** A phone number row as the api shows it. */
export const presentPhoneNumber = (p: PhoneNumberRow) => ({
  id: p.id,
  number: p.phone,
  agent_id: p.agent_id,
  phone_group_id: p.phone_group_id,
  created_at: p.created_at.toISOString(),
});
