import type { ChatModel, ChatTurnInput } from './model';

// Words that say nothing about what was asked.
const STOP = new Set(
  'a an and are can could did do does for from have how i in is it its me my of on or our please so that the this to us was we what when where which who why will with would you your'.split(
    ' ',
  ),
);

// Words that mean the same thing in a customer's question and in a flow's facts (compared as their first word).
const SAME = [
  'price pricing cost costs expensive cheap afford fee fees pay paid plan plans charge much money dollar dollars subscription trial',
  'book booking schedule meeting appointment demo slot available availability',
  'open hours weekday weekdays weekend time when day days',
  'work works product service services offer offers feature features',
  'contact email phone reach talk speak human person',
];
const SYNONYM = new Map<string, string>();
for (const group of SAME) for (const w of group.split(' ')) SYNONYM.set(w, group.split(' ')[0]!);

/** A word reduced to a common form: lower case, a plural or -ing/-ed ending dropped, synonyms folded together. */
function term(word: string): string {
  const w = word.toLowerCase();
  if (SYNONYM.has(w)) return SYNONYM.get(w)!;
  const stem = w.length > 4 ? w.replace(/(ing|ed|es|s)$/, '') : w;
  return SYNONYM.get(stem) ?? stem;
}

const terms = (text: string) =>
  new Set(
    text
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 1 && !STOP.has(w.toLowerCase()))
      .map(term),
  );

const SMALL_TALK: { words: RegExp; answer: string }[] = [
  { words: /\b(bye|goodbye|see you|that'?s all|done)\b/i, answer: 'Goodbye, and thanks for stopping by!' },
  { words: /\b(thanks|thank you|thx|cheers)\b/i, answer: 'You are welcome! Anything else I can help with?' },
  { words: /^\s*(hi|hello|hey|good (morning|afternoon|evening))\b/i, answer: 'Hello! What would you like to know?' },
];

/** The fact sharing the most terms with the message (the earlier one on a tie); undefined when none shares any. */
export function bestFact(facts: string[], message: string): string | undefined {
  const asked = terms(message);
  let best: { fact: string; score: number } | undefined;
  for (const fact of facts) {
    let score = 0;
    for (const t of terms(fact)) if (asked.has(t)) score++;
    if (score > 0 && (!best || score > best.score)) best = { fact, score };
  }
  return best?.fact;
}

/**
 * The default model: deterministic, no network. It answers from the flow's facts (the best-matching one), answers
 * thanks, goodbyes and greetings in kind, and otherwise says what it can tell; the node's instructions are never
 * said. It classifies by the label found in the message.
 */
export class ScriptedChatModel implements ChatModel {
  async reply(turn: ChatTurnInput): Promise<string> {
    const fact = bestFact(turn.facts, turn.input);
    if (fact) return fact;
    const talk = SMALL_TALK.find((s) => s.words.test(turn.input));
    if (talk) return talk.answer;
    if (turn.facts.length) return `I am not sure about that. What I can tell you: ${turn.facts[0]}`;
    return 'I am not sure about that. Could you put it another way?';
  }

  async classify(args: { labels: string[]; input: string }): Promise<string | undefined> {
    const text = args.input.toLowerCase();
    return args.labels.find((l) => text.includes(l.toLowerCase()));
  }
}

/** The scripted model before the `chat-scripted-facts` patch (it fell back to the prompt), for histories recorded with it. */
export function legacyScriptedReply(turn: ChatTurnInput): string {
  const words = (text: string) =>
    new Set(
      text
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter((w) => w.length > 2),
    );
  const asked = words(turn.input);
  let best: { fact: string; score: number } | undefined;
  for (const fact of turn.facts) {
    let score = 0;
    for (const w of words(fact)) if (asked.has(w)) score++;
    if (score > 0 && (!best || score > best.score)) best = { fact, score };
  }
  return best?.fact ?? turn.prompt;
}
