import { ChatClient, type Frame } from '../helpers/chat-client';

/** An answer of the api: status and JSON body. */
export interface Answer {
  status: number;
  body: any;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A client as a production one should be: every POST carries an Idempotency-Key, and a refused connection, a 5xx, a
 * 429 or a 409 "in progress" (a claim left by an api killed mid-request, or whose database went away) is retried with the same key on the next api.
 * Gives up after limitMs. Counts the retries, so the test can show the faults were felt.
 */
export class RetryingClient {
  retries = 0;
  /** Retries that met a claim left behind (409 in progress). */
  stale = 0;
  constructor(
    private readonly apis: string[],
    private readonly limitMs = 420_000,
  ) {}

  async post(path: string, body: unknown, o: { key: string; auth: Record<string, string>; first?: number }): Promise<Answer> {
    const deadline = Date.now() + this.limitMs;
    for (let attempt = 0; ; attempt++) {
      const base = this.apis[((o.first ?? 0) + attempt) % this.apis.length]!;
      let answer: Answer | undefined;
      try {
        const res = await fetch(`${base}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'idempotency-key': o.key, ...o.auth },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(60_000),
        });
        answer = { status: res.status, body: await res.json().catch(() => undefined) };
      } catch {
        // Refused or cut: the api is down or died mid-request.
      }
      const retry =
        !answer ||
        answer.status >= 500 ||
        answer.status === 429 ||
        (answer.status === 409 && /in progress/.test(answer.body?.message ?? answer.body?.error ?? ''));
      if (!retry) return answer!;
      if (answer?.status === 409) this.stale++;
      if (Date.now() > deadline) throw new Error(`POST ${path} (${o.key}): still failing after ${this.limitMs} ms: ${JSON.stringify(answer)}`);
      this.retries++;
      await sleep(Math.min(250 * 2 ** Math.min(attempt, 4), 3000));
    }
  }
}

const bot = (frames: Frame[]) => frames.filter((f) => f.type === 'message').map((f) => f.content as string);

/**
 * One chat conversation of the demo flow on an api: the opening, an email and a question (two turns). A turn answered
 * with an `error` frame (the api could not hand it to Temporal, e.g. right after the server restarted) is said again,
 * as the widget's user would. Resolves with the session id, the bot's messages and the turns said again.
 */
export async function chatConversation(api: string, flowId: string): Promise<{ sessionId: string; said: string[]; resent: number }> {
  const c = new ChatClient(`${api.replace(/^http/, 'ws')}/webchat/flow/${flowId}/session/null/r/false`);
  let resent = 0;
  const turn = async (text: string): Promise<string> => {
    for (let attempt = 0; ; attempt++) {
      c.say(text);
      for (;;) {
        const f = await c.next(60_000);
        if (f.type === 'message') return f.content as string;
        if (f.type === 'error') break;
      }
      if (attempt >= 5) throw new Error(`chat turn "${text}" refused ${attempt + 1} times`);
      resent++;
      await sleep(1000);
    }
  };
  try {
    await c.opened;
    const opening = await c.take(4);
    const sessionId = opening.find((f) => f.type === 'session')?.session_id as string;
    const said = bot(opening);
    said.push(await turn('ann@example.com'));
    said.push(await turn('What does Switchboard do?'));
    return { sessionId, said, resent };
  } finally {
    c.close();
  }
}
