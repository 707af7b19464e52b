import type { ChatModel } from '../llm/model';
import { bestFact } from '../llm/scripted';
import type { AgentModel, ToolSpec, TurnDelta, TurnMessage } from './engines/types';

/** The facts a prompt gives the scripted agent: the lines of its `Facts:` section, each a sentence it may say. */
function promptFacts(prompt: string): string[] {
  const at = prompt.search(/^\s*facts\s*:/im);
  if (at < 0) return [];
  return prompt
    .slice(at)
    .split('\n')
    .slice(1)
    .map((l) => l.replace(/^\s*[-*]\s*/, '').trim())
    .filter(Boolean);
}

const RULES: { when: RegExp; say: string }[] = [
  { when: /\b(bye|goodbye|that'?s all|no,? thanks?|not interested|hang up)\b/i, say: 'Thank you for your time. Goodbye!' },
  { when: /^\[keypad: ([0-9*#]+)\]$/, say: 'You pressed $1. Thank you, I have noted that. Is there anything else I can help with?' },
  {
    when: /\b(human|person|agent|representative|operator)\b/i,
    say: 'I understand. I will make a note that you would like to speak with a person. Anything else?',
  },
  {
    when: /\b(yes|yeah|yep|sure|correct|right|that works|sounds good|ok(ay)?|go ahead)\b/i,
    say: 'Great, you are all set. Is there anything else I can help with?',
  },
  { when: /\b(no|nope|nothing( else)?|not really|i'?m good)\b/i, say: 'No problem. Thank you for your time. Goodbye!' },
  { when: /\b(later|busy|call (me )?back)\b/i, say: 'Of course, I will call you back another time. Goodbye!' },
  { when: /^\s*(hi|hello|hey)\b/i, say: 'Hello! How can I help you today?' },
];

/**
 * The default agent model: deterministic, no network. It answers from the prompt's `Facts:` lines when the callee asks
 * about one, confirms a yes, takes a no or a goodbye as the end (a goodbye that ends the call), reads back keypad
 * digits, and asks again when it did not understand. It never says its instructions. Text streams a word at a time.
 */
export class ScriptedAgentModel implements AgentModel {
  readonly name = 'scripted';

  async *turn(messages: TurnMessage[], _tools: ToolSpec[], signal: AbortSignal): AsyncIterable<TurnDelta> {
    const prompt = messages.find((m) => m.role === 'system')?.content ?? '';
    const input = [...messages].reverse().find((m) => m.role === 'user')?.content ?? '';
    const fact = input.startsWith('[keypad:') ? undefined : bestFact(promptFacts(prompt), input);
    const rule = RULES.find((r) => r.when.test(input));
    let answer = fact;
    if (!answer && rule) answer = rule.say.replace('$1', rule.when.exec(input)![1] ?? '');
    answer ??= 'Sorry, I did not catch that. Could you say it another way?';
    for (const word of answer.split(/(?<= )/)) {
      if (signal.aborted) return;
      yield { type: 'text', text: word };
      await new Promise((r) => setImmediate(r));
    }
  }
}

/** An OpenAI-compatible chat model (src/llm) as the agent's model: the whole answer as one delta, spoken by sentence. */
export class ChatAgentModel implements AgentModel {
  readonly name = 'openai-compatible';
  constructor(private readonly chat: ChatModel) {}

  async *turn(messages: TurnMessage[], _tools: ToolSpec[], signal: AbortSignal): AsyncIterable<TurnDelta> {
    const prompt = messages
      .filter((m) => m.role === 'system')
      .map((m) => m.content)
      .join('\n\n');
    const talk = messages.filter((m): m is TurnMessage & { role: 'user' | 'assistant' } => m.role === 'user' || m.role === 'assistant');
    const lastUser = talk.map((m) => m.role).lastIndexOf('user');
    const history = talk.slice(0, lastUser < 0 ? talk.length : lastUser).map((m) => ({ role: m.role, content: m.content }));
    const spoken = `${prompt}\n\nYou are on a phone call: answer in one to three short spoken sentences, no lists or markup.`;
    const answer = await this.chat.reply({ prompt: spoken, facts: [], history, input: lastUser < 0 ? '' : talk[lastUser]!.content });
    if (!signal.aborted) yield { type: 'text', text: answer };
  }
}
