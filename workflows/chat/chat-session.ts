// chatSession: one web-chat conversation (id `chat:<sessionId>`), its flow position and its messages.
import {
  allHandlersFinished,
  ApplicationFailure,
  condition,
  continueAsNew,
  deprecatePatch,
  proxyLocalActivities,
  setHandler,
  uuid4,
} from '@temporalio/workflow';
import type { ChatActivities } from '../../activities/chat/chat';
import { advance, initialEngineState, type EngineEffects, type StepOutcome } from '../../src/chat/engine';
import { ScriptedChatModel } from '../../src/llm/scripted';
import {
  chatMessageUpdate,
  chatOpenUpdate,
  chatUnsavedQuery,
  FLOW_ENDED_TYPE,
  RUN_CLOSING_TYPE,
  type ChatCarried,
  type ChatInput,
  type ChatMessage,
  type ChatTurn,
} from './chat-messages';
import { runChatAutomation } from './chat-automation';
import { TurnWriter } from './chat-persist';

// Local activities: a turn is a user waiting on a reply, so no task-queue round trip per step.
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
// It answers from the facts and never with the node's prompt (deprecated patch chat-scripted-facts).
const inline: EngineEffects = {
  reply: async (args) => {
    deprecatePatch('chat-scripted-facts');
    return scripted.reply(args);
  },
  classify: (args) => scripted.classify(args),
};

// Turns gather this long before their write (in a pause of the conversation, not right after a reply).
const WRITE_DELAY_MS = 2000;

/**
 * Holds a conversation: Update `open` runs the flow's opening, Update `message` feeds one user message and returns
 * the replies. Turns run one at a time, each stored in Postgres (messages by seq, exactly once, with the state).
 * Ends after idleMs without a message or at the flow's end; continues as new after updatesPerRun messages.
 * A turn's reply returns before its write (a batched activity in the next pause, see TurnWriter), and the idle timer
 * is one timer re-armed when it fires, not a new timer per message. The patches chat-reply-first, chat-automation and
 * chat-scripted-facts are deprecated (docs/workflow-versioning.md).
 */
export async function chatSession(input: ChatInput): Promise<void> {
  const carried: ChatCarried = input.resume ?? { engine: initialEngineState(), seq: 0, opened: false };
  const answers = input.model === 'scripted' ? inline : remote;
  const effects: EngineEffects = {
    ...answers,
    automation: async ({ node, captured }) => {
      deprecatePatch('chat-automation');
      return runChatAutomation(input, node, captured);
    },
  };
  deprecatePatch('chat-reply-first');
  const writer = new TurnWriter(WRITE_DELAY_MS);
  let closing = false;
  let updates = 0;
  let lastActive = Date.now();
  let turns: Promise<unknown> = Promise.resolve();

  const record = async (user: ChatMessage | undefined, outcome: StepOutcome): Promise<ChatTurn> => {
    const replies = outcome.replies.map((content): ChatMessage => ({ id: uuid4(), seq: ++carried.seq, sender: 'bot', content }));
    const turn = {
      sessionId: input.sessionId,
      workspaceId: input.workspaceId,
      leadId: input.leadId,
      messages: user ? [user, ...replies] : replies,
      state: carried,
      captures: outcome.captures,
      skipped: outcome.skipped,
      automations: outcome.automations,
    };
    writer.add(turn);
    return { user, replies, ended: carried.engine.ended };
  };
  // One turn at a time, in arrival order: each starts from the state the previous one left.
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = turns.then(fn);
    turns = run.catch(() => undefined);
    return run;
  };

  setHandler(
    chatOpenUpdate,
    () =>
      serial(async () => {
        if (carried.opened) return { replies: [], ended: carried.engine.ended };
        carried.opened = true;
        return record(undefined, await advance(input.graph, carried.engine, undefined, effects));
      }),
    {
      validator: () => {
        if (closing) throw ApplicationFailure.create({ type: RUN_CLOSING_TYPE, message: 'This run is closing: send again', nonRetryable: true });
      },
    },
  );
  setHandler(
    chatMessageUpdate,
    (msg) => {
      updates++;
      lastActive = Date.now();
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
        if (closing) throw ApplicationFailure.create({ type: RUN_CLOSING_TYPE, message: 'This run is closing: send again', nonRetryable: true });
        if (typeof msg?.text !== 'string' || !msg.text.trim()) throw new Error('message text is empty');
      },
    },
  );

  setHandler(chatUnsavedQuery, () => ({ messages: writer.unsaved(), ended: carried.engine.ended }));
  // One timer per idle period: it is re-armed for the rest of the period when messages came meanwhile.
  for (;;) {
    const left = lastActive + input.idleMs - Date.now();
    if (left <= 0) break;
    await condition(() => carried.engine.ended || updates >= input.updatesPerRun, left);
    if (carried.engine.ended || updates >= input.updatesPerRun) break;
  }
  // The last writes must land before the run closes; messages sent meanwhile are refused (the sender resends
  // them to the next run), and no write is in flight when the closing command goes (it would race its completion).
  closing = true;
  await condition(allHandlersFinished);
  await writer.drain();
  if (!carried.engine.ended && updates >= input.updatesPerRun) await continueAsNew<typeof chatSession>({ ...input, resume: carried });
}
