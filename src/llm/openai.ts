import { guardedOutboundRequest } from '../net/outbound';
import { BlockedAddressError, type SsrfOptions } from '../net/ssrf';
import type { ChatModel, ChatTurnInput } from './model';

export interface OpenAiOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
  /** Further attempts after a 429, a 5xx or a network error. */
  retries: number;
  ssrf: SsrfOptions;
}

/** A model answer the caller cannot use (an error status after the retries, or a malformed body). */
export class ChatModelError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'ChatModelError';
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Any OpenAI-compatible server's chat-completions endpoint ({baseUrl}/chat/completions). */
export class OpenAiChatModel implements ChatModel {
  constructor(private readonly o: OpenAiOptions) {}

  async reply(turn: ChatTurnInput): Promise<string> {
    const system = turn.facts.length ? `${turn.prompt}\n\nFacts you may use:\n${turn.facts.map((f) => `- ${f}`).join('\n')}` : turn.prompt;
    return this.complete([{ role: 'system', content: system }, ...turn.history, { role: 'user', content: turn.input }]);
  }

  async classify(args: { labels: string[]; input: string }): Promise<string | undefined> {
    const answer = await this.complete([
      { role: 'system', content: `Classify the user's message as exactly one of: ${args.labels.join(', ')}. Answer with the label only, or "none".` },
      { role: 'user', content: args.input },
    ]);
    const said = answer.trim().toLowerCase();
    return args.labels.find((l) => l.toLowerCase() === said) ?? args.labels.find((l) => said.includes(l.toLowerCase()));
  }

  private async complete(messages: { role: string; content: string }[]): Promise<string> {
    const url = `${this.o.baseUrl.replace(/\/+$/, '')}/chat/completions`;
    const body = JSON.stringify({ model: this.o.model, messages });
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
    if (this.o.apiKey) headers.authorization = `Bearer ${this.o.apiKey}`;
    let last: Error = new ChatModelError('no attempt made', true);
    for (let attempt = 0; attempt <= this.o.retries; attempt++) {
      if (attempt > 0) await sleep(Math.min(200 * 2 ** (attempt - 1), 2000));
      try {
        const res = await guardedOutboundRequest(url, { method: 'POST', headers, body, timeoutMs: this.o.timeoutMs, maxResponseBytes: 1_000_000 }, this.o.ssrf);
        if (res.status === 429 || res.status >= 500) {
          last = new ChatModelError(`chat model answered ${res.status}`, true);
          continue;
        }
        if (res.status !== 200) throw new ChatModelError(`chat model answered ${res.status}`, false);
        const content = (JSON.parse(res.body) as { choices?: { message?: { content?: unknown } }[] }).choices?.[0]?.message?.content;
        if (typeof content !== 'string') throw new ChatModelError('chat model answer has no choices[0].message.content', false);
        return content;
      } catch (err) {
        if ((err instanceof ChatModelError && !err.retryable) || err instanceof BlockedAddressError) throw err;
        if (err instanceof SyntaxError) throw new ChatModelError('chat model answer is not JSON', false);
        last = err as Error;
      }
    }
    throw last;
  }
}
