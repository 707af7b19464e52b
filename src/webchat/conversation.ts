import { WithStartWorkflowOperation, WorkflowNotFoundError, type Client, type WorkflowStartOptions } from '@temporalio/client';
import type { UpdateDefinition } from '@temporalio/common';
import type { Config } from '../config';
import { parseFlowGraph } from '../chat/flow-schema';
import type { Db } from '../db/pool';
import { findChatSession, type ChatSessionRow, type FlowRow } from '../db/repos/chat';
import { chatWorkflowId } from '../temporal/ids';
import { SA } from '../temporal/search-attribute-keys';
import { taskQueue } from '../temporal/task-queues';
import { chatMessageUpdate, chatOpenUpdate, type ChatCarried, type ChatInput, type ChatTurn } from '../../workflows/chat-messages';
import type { chatSession } from '../../workflows/chat-session';

export interface ConversationDeps {
  config: Config;
  db: Db;
  temporal: { client: Client };
}

/** The workflow side of one conversation: sends its updates, starting (or resuming from Postgres) the run when none is open. */
export class Conversation {
  constructor(
    private readonly deps: ConversationDeps,
    readonly session: ChatSessionRow,
    readonly flow: FlowRow,
    /** No run was started for it yet (a conversation this connection created): the first update starts one. */
    private noRunYet = false,
  ) {}

  /** The flow's opening messages (none when the conversation was already opened). */
  open(): Promise<ChatTurn> {
    return this.update(chatOpenUpdate, [], undefined);
  }

  /** Feeds one user message; id (a UUID) names the message and deduplicates a retried update. */
  send(id: string, text: string): Promise<ChatTurn> {
    return this.update(chatMessageUpdate, [{ id, text }], id);
  }

  private async update(def: UpdateDefinition<ChatTurn, any>, args: unknown[], updateId: string | undefined): Promise<ChatTurn> {
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
    const stored = (await findChatSession(this.deps.db, this.session.id))?.state as ChatCarried | null | undefined;
    const startWorkflowOperation = new WithStartWorkflowOperation<typeof chatSession>('chatSession', this.startOptions(stored ?? undefined));
    return client.workflow.executeUpdateWithStart(def as UpdateDefinition<ChatTurn, [unknown]>, { args: args as [unknown], updateId, startWorkflowOperation });
  }

  private startOptions(stored: ChatCarried | undefined): WorkflowStartOptions<typeof chatSession> & { workflowIdConflictPolicy: 'USE_EXISTING' } {
    const { config } = this.deps;
    const input: ChatInput = {
      sessionId: this.session.id,
      workspaceId: this.session.workspace_id,
      flowId: this.flow.id,
      leadId: this.session.lead_id ?? undefined,
      graph: parseFlowGraph(this.flow.graph),
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
      typedSearchAttributes: [
        { key: SA.WorkspaceId, value: this.session.workspace_id },
        { key: SA.FlowId, value: this.flow.id },
        ...(this.session.lead_id ? [{ key: SA.LeadId, value: this.session.lead_id }] : []),
      ],
    };
  }
}
