// chatSession: one web-chat conversation (id `chat:<sessionId>`), its flow position and its messages.
import { allHandlersFinished, ApplicationFailure, condition, continueAsNew, proxyLocalActivities, setHandler, uuid4 } from '@temporalio/workflow';
import type { ChatActivities } from '../activities/chat';
import { advance, initialEngineState, type EngineEffects, type StepOutcome } from '../src/chat/engine';
import { ScriptedChatModel } from '../src/llm/scripted';
import { chatMessageUpdate, chatOpenUpdate, FLOW_ENDED_TYPE, type ChatCarried, type ChatInput, type ChatMessage, type ChatTurn } from './chat-messages';

// Local activities: a turn is a user waiting on a reply, so no task-queue round trip per step.
const store = proxyLocalActivities<ChatActivities>({
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '200 milliseconds', backoffCoefficient: 2, maximumInterval: '5 seconds' },
});
const model = proxyLocalActivities<ChatActivities>({
  startToCloseTimeout: '60 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 2, maximumInterval: '5 seconds', maximumAttempts: 3 },
});

const remote: EngineEffects = {
  reply: (args) => model.chatModelReply(args),
  classify: (args) => model.chatModelClassify(args),
};
// Deterministic and pure: run in the workflow itself, so a scripted turn costs one local activity (the store), not two.
const scripted = new ScriptedChatModel();
const inline: EngineEffects = { reply: (args) => scripted.reply(args), classify: (args) => scripted.classify(args) };

/**
 * Holds a conversation: Update `open` runs the flow's opening, Update `message` feeds one user message and returns
 * the replies. Turns run one at a time, each stored in Postgres (messages by seq, exactly once, with the state).
 * Ends after idleMs without a message or at the flow's end; continues as new after updatesPerRun messages.
 */
export async function chatSession(input: ChatInput): Promise<void> {
  const carried: ChatCarried = input.resume ?? { engine: initialEngineState(), seq: 0, opened: false };
  const effects = input.model === 'scripted' ? inline : remote;
  let updates = 0;
  let turns: Promise<unknown> = Promise.resolve();

  const record = async (user: ChatMessage | undefined, outcome: StepOutcome): Promise<ChatTurn> => {
    const replies = outcome.replies.map((content): ChatMessage => ({ id: uuid4(), seq: ++carried.seq, sender: 'bot', content }));
    await store.chatSaveTurn({
      sessionId: input.sessionId,
      workspaceId: input.workspaceId,
      leadId: input.leadId,
      messages: user ? [user, ...replies] : replies,
      state: carried,
      captures: outcome.captures,
      skipped: outcome.skipped,
    });
    return { user, replies, ended: carried.engine.ended };
  };
  // One turn at a time, in arrival order: each starts from the state the previous one left.
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = turns.then(fn);
    turns = run.catch(() => undefined);
    return run;
  };

  setHandler(chatOpenUpdate, () =>
    serial(async () => {
      if (carried.opened) return { replies: [], ended: carried.engine.ended };
      carried.opened = true;
      return record(undefined, await advance(input.graph, carried.engine, undefined, effects));
    }),
  );
  setHandler(
    chatMessageUpdate,
    (msg) => {
      updates++;
      return serial(async () => {
        if (carried.engine.ended) throw ApplicationFailure.create({ type: FLOW_ENDED_TYPE, message: 'Flow has ended', nonRetryable: true });
        if (!carried.opened) {
          carried.opened = true;
          await record(undefined, await advance(input.graph, carried.engine, undefined, effects));
        }
        const user: ChatMessage = { id: msg.id, seq: ++carried.seq, sender: 'user', content: msg.text };
        return record(user, await advance(input.graph, carried.engine, msg.text, effects));
      });
    },
    {
      validator: (msg) => {
        if (carried.engine.ended) throw ApplicationFailure.create({ type: FLOW_ENDED_TYPE, message: 'Flow has ended', nonRetryable: true });
        if (typeof msg?.text !== 'string' || !msg.text.trim()) throw new Error('message text is empty');
      },
    },
  );

  for (;;) {
    const seen = updates;
    const woke = await condition(() => updates !== seen || carried.engine.ended || updates >= input.updatesPerRun, input.idleMs);
    if (!woke || carried.engine.ended) break;
    if (updates >= input.updatesPerRun) {
      await condition(allHandlersFinished);
      await continueAsNew<typeof chatSession>({ ...input, resume: carried });
    }
  }
  await condition(allHandlersFinished);
}
