import type { ChatModel, ChatTurnInput } from './model';

const words = (text: string) => new Set(text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length > 2));

/**
 * The default model: deterministic, no network. It answers with the flow's fact sharing the most words with the
 * message (the prompt when no fact matches), and classifies by the label found in the message.
 */
export class ScriptedChatModel implements ChatModel {
  async reply(turn: ChatTurnInput): Promise<string> {
    const asked = words(turn.input);
    let best: { fact: string; score: number } | undefined;
    for (const fact of turn.facts) {
      let score = 0;
      for (const w of words(fact)) if (asked.has(w)) score++;
      if (score > 0 && (!best || score > best.score)) best = { fact, score };
    }
    return best?.fact ?? turn.prompt;
  }

  async classify(args: { labels: string[]; input: string }): Promise<string | undefined> {
    const text = args.input.toLowerCase();
    return args.labels.find((l) => text.includes(l.toLowerCase()));
  }
}
