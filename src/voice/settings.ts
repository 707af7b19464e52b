/** How an agent holds a conversation on a call; every field has a default, so an agent with none set still speaks. */
export interface VoiceSettings {
  /** The agent's instructions (never spoken). */
  prompt: string;
  /** Spoken when the callee answers, already rendered for this call. */
  firstMessage: string;
  language: string;
  voice: { engine: string; voiceId: string | null };
  stt: { engine: string };
  llm: { engine: string };
  /** Callee speech while the agent talks cuts the agent off. */
  interruptible: boolean;
  /** Silence this long after the agent spoke gets one reprompt, then the call ends (silence_timeout). */
  silenceTimeoutS: number;
  /** The call ends at this length (max_duration). */
  maxDurationS: number;
  /** The agent saying one of these (case and punctuation aside) ends the call once it has been heard. */
  endCallPhrases: string[];
  /** Silence that ends the callee's turn. */
  endOfSpeechMs: number;
  /** Speech shorter than this (a cough, a click) takes no turn and interrupts nothing. */
  minSpeechMs: number;
}

export const DEFAULT_VOICE_SETTINGS: VoiceSettings = {
  prompt: 'You are a friendly assistant calling on behalf of {{company}}. Greet the callee, answer briefly, confirm what they want, then say goodbye.',
  firstMessage: 'Hi {{first_name}}, this is {{agent_name}} calling from {{company}}. Is now a good time?',
  language: 'en-US',
  voice: { engine: 'local/piper', voiceId: null },
  stt: { engine: 'local/whisper-tiny.en' },
  llm: { engine: 'scripted' },
  interruptible: true,
  silenceTimeoutS: 10,
  maxDurationS: 600,
  endCallPhrases: ['goodbye', 'bye'],
  endOfSpeechMs: 600,
  minSpeechMs: 250,
};

/**
 * Fills `{{name}}` placeholders from vars (lead fields, request_data keys, agent and workspace names); a placeholder
 * with no value is dropped. Only names of letters, digits and _ are placeholders.
 */
export function renderTemplate(template: string, vars: Record<string, unknown>): string {
  return template
    .replace(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g, (_, name: string) => {
      const v = vars[name];
      return v === undefined || v === null || typeof v === 'object' ? '' : String(v);
    })
    .replace(/[ \t]+([,.!?])/g, '$1')
    .replace(/[ \t]{2,}/g, ' ')
    .trim();
}

/** Normalised for phrase matching: lower case, letters, digits and single spaces. */
const normalisePhrase = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** Whether text says one of the end phrases (as whole words). */
export function saysEndPhrase(text: string, phrases: string[]): boolean {
  const said = ` ${normalisePhrase(text)} `;
  return phrases.some((p) => normalisePhrase(p) && said.includes(` ${normalisePhrase(p)} `));
}
