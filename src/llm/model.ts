/** One chat turn's context for a model. */
export interface ChatTurnInput {
  /** The node's instructions (system prompt). */
  prompt: string;
  /** The flow's own content the answer may draw on. */
  facts: string[];
  history: { role: 'user' | 'assistant'; content: string }[];
  input: string;
}

/** A chat model: answers a turn, and classifies a message into one of given labels. */
export interface ChatModel {
  reply(turn: ChatTurnInput): Promise<string>;
  /** One of labels, or undefined when none fits. */
  classify(args: { labels: string[]; input: string }): Promise<string | undefined>;
}
