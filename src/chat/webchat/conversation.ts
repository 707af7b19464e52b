import {
  QueryNotRegisteredError,
  QueryRejectedError,
  WorkflowClient,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  type Client,
  type WorkflowStartOptions,
} from '@temporalio/client';
import { setTimeout as sleep } from 'node:timers/promises';
import type { UpdateDefinition } from '@temporalio/common';
import type { Config } from '../../core/config';
import { parseFlowGraph } from '../flow-schema';
import type { Db } from '../../db/pool';
import { findChatResume, type ChatSessionRow, type FlowRow } from '../db/chat';
import { chatWorkflowId } from '../../temporal/ids';
import { runSearchAttributes } from '../../temporal/search-attributes';
import { taskQueue } from '../../temporal/task-queues';
import { startOperation, WORKFLOW } from '../../temporal/workflow-types';
import type { UnstoredConversation } from './opening';
import {
  chatMessageUpdate,
  chatOpenUpdate,
  chatUnsavedQuery,
  RUN_CLOSING_TYPE,
  type ChatCarried,
  type ChatInput,
  type ChatMessage,
  type ChatTurn,
} from '../../../workflows/chat/chat-messages';
import type { chatSession } from '../../../workflows/chat/chat-session';

export interface ConversationDeps {
  config: Config;
  db: Db;
  temporal: { client: Client };
}

// Queries only open runs: a closed run has stored everything, and querying it would replay its history on a worker.
const openOnly = new WeakMap<Client, WorkflowClient>();
const openRunsClient = (client: Client) => {
  let wc = openOnly.get(client);
  if (!wc)
    openOnly.set(
      client,
      (wc = new WorkflowClient({
        connection: client.connection,
        namespace: client.options.namespace,
        dataConverter: client.options.dataConverter,
        queryRejectCondition: 'NOT_OPEN',
      })),
    );
  return wc;
};

/**
 * What a connection keeps of its conversation and flow: ids and the persona, not the stored state or the flow's graph
 * (an idle socket holds only these; a run that starts reads the state and graph of that moment).
 */
export type ChatSessionRef = Pick<ChatSessionRow, 'id' | 'workspace_id' | 'flow_id' | 'lead_id'>;
export type FlowPersona = Pick<FlowRow, 'id' | 'owner_name' | 'owner_picture'>;

/** What an open run answered but has not stored yet, and whether its flow ended. */
export type Unsaved = { messages: ChatMessage[]; ended: boolean };

const CLOSING_RETRY_MS = 25;
const CLOSING_ATTEMPTS = 400;

/** The workflow side of one conversation: sends its updates, starting (or resuming from Postgres) the run when none is open. */
export class Conversation {
  constructor(
    private readonly deps: ConversationDeps,
    readonly session: ChatSessionRef,
    readonly flow: FlowPersona,
    /** No run was started for it yet (a conversation this connection created): the first update starts one. */
    private noRunYet = false,
    /** A new anonymous conversation not stored yet: the first message stores it (and opens it, when the run must). */
    private unstored?: UnstoredConversation,
  ) {}

  /** The flow's opening messages (none when the conversation was already opened). */
  open(): Promise<ChatTurn> {
    return this.update(chatOpenUpdate, [], undefined);
  }

  /** Feeds one user message; id (a UUID) names the message and deduplicates a retried update. */
  async send(id: string, text: string): Promise<ChatTurn> {
    const first = this.unstored;
    if (first) {
      await first.store();
      this.unstored = undefined;
      // An opening that runs an action waited for the visitor: it comes first, then the answer to the message.
      if (!first.opening) {
        const opening = await this.open();
        const turn = await this.update(chatMessageUpdate, [{ id, text }], id);
        return { ...turn, replies: [...opening.replies, ...turn.replies] };
      }
    }
    return this.update(chatMessageUpdate, [{ id, text }], id);
  }

  /**
   * Messages the open run answered but has not stored yet (a turn's write follows its reply), and whether the flow
   * ended; undefined when no run is open (Postgres then has everything) or the run predates the query.
   */
  async unsaved(): Promise<Unsaved | undefined> {
    try {
      return await openRunsClient(this.deps.temporal.client).getHandle(chatWorkflowId(this.session.id)).query(chatUnsavedQuery);
    } catch (err) {
      if (err instanceof WorkflowNotFoundError || err instanceof QueryRejectedError || err instanceof QueryNotRegisteredError) return undefined;
      throw err;
    }
  }

  // A run closing (its last writes landing before an idle end or a continue-as-new) refuses messages unrecorded:
  // sent again a moment later they reach the next run (or start one from Postgres).
  private async update(def: UpdateDefinition<ChatTurn, any>, args: unknown[], updateId: string | undefined): Promise<ChatTurn> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.updateOnce(def, args, updateId);
      } catch (err) {
        const closing = err instanceof WorkflowUpdateFailedError && (err.cause as { type?: string } | undefined)?.type === RUN_CLOSING_TYPE;
        if (!closing || attempt >= CLOSING_ATTEMPTS) throw err;
        await sleep(CLOSING_RETRY_MS);
      }
    }
  }

  private async updateOnce(def: UpdateDefinition<ChatTurn, any>, args: unknown[], updateId: string | undefined): Promise<ChatTurn> {
    const { client } = this.deps.temporal;
    const workflowId = chatWorkflowId(this.session.id);
    const tryOpenRun = !this.noRunYet;
    this.noRunYet = false;
    if (tryOpenRun) {
      try {
        // The common case: the run is open; one call.
        return await client.workflow.getHandle(workflowId).executeUpdate(def as UpdateDefinition<ChatTurn, [unknown]>, { args: args as [unknown], updateId });
      } catch (err) {
        if (!(err instanceof WorkflowNotFoundError)) throw err;
      }
    }
    // A run that ended (idle, or an api restart in between) comes back from the state stored with the last turn.
    const resume = await findChatResume(this.deps.db, this.session.id);
    if (!resume) throw new Error('chat session no longer stored');
    const startWorkflowOperation = startOperation(WORKFLOW.chatSession, this.startOptions(resume.graph, (resume.state as ChatCarried | null) ?? undefined));
    return client.workflow.executeUpdateWithStart(def as UpdateDefinition<ChatTurn, [unknown]>, { args: args as [unknown], updateId, startWorkflowOperation });
  }

  private startOptions(
    graph: unknown,
    stored: ChatCarried | undefined,
  ): WorkflowStartOptions<typeof chatSession> & { workflowIdConflictPolicy: 'USE_EXISTING' } {
    const { config } = this.deps;
    const input: ChatInput = {
      sessionId: this.session.id,
      workspaceId: this.session.workspace_id,
      flowId: this.flow.id,
      leadId: this.session.lead_id ?? undefined,
      graph: parseFlowGraph(graph),
      model: config.CHAT_MODEL_BASE_URL ? 'openai' : 'scripted',
      idleMs: config.CHAT_IDLE_MS,
      updatesPerRun: config.CHAT_UPDATES_PER_RUN,
      resume: stored,
    };
    return {
      workflowId: chatWorkflowId(this.session.id),
      taskQueue: taskQueue('chat', config.TEMPORAL_TASK_QUEUE_PREFIX),
      args: [input],
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      typedSearchAttributes: runSearchAttributes.chatSession({ workspaceId: this.session.workspace_id, flowId: this.flow.id, leadId: input.leadId }),
    };
  }
}
