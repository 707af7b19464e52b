import { chatSessionLead, saveChatAutomations, saveChatTurn, type ChatMessageRow } from '../../src/chat/db/chat';
import type { AutomationResult } from '../../src/chat/engine';
import { updateLead } from '../../src/leads/db/leads';
import type { Db } from '../../src/db/pool';
import { splitRecordFor } from '../../src/leads/record';
import type { Logger } from '../../src/telemetry/log';
import type { ChatModel, ChatTurnInput } from '../../src/llm/model';

/** One turn to store: its messages, the flow state after it and the answers captured into the lead. */
export interface ChatTurnRecord {
  sessionId: string;
  workspaceId: string;
  leadId?: string;
  messages: ChatMessageRow[];
  state: unknown;
  captures: { field: string; value: string }[];
  skipped: { node: string; reason: string }[];
  /** Automation nodes run in the turn (absent in turns recorded before the chat-automation patch). */
  automations?: AutomationResult[];
}

/** The chat's activities (run as local activities: a turn's latency is the user's wait). */
export function createChatActivities(deps: { db: Db; logger: Logger; model: ChatModel }) {
  // The conversation keeps every answer; the lead takes those its fields accept (a bad value or a phone held by
  // another lead is logged, not retried: retrying cannot make it fit). The lead's own phone is its identity: kept.
  const capture = async (workspaceId: string, leadId: string, captures: ChatTurnRecord['captures']) => {
    const record: Record<string, unknown> = {};
    for (const c of captures) if (c.field !== 'phone') record[c.field] = c.value;
    if (!Object.keys(record).length) return;
    try {
      const { standard, custom } = await splitRecordFor(deps.db, workspaceId, record);
      const { phone: _phone, ...fields } = standard;
      await updateLead(deps.db, workspaceId, leadId, fields, custom);
    } catch (err) {
      deps.logger.warn({ leadId, fields: Object.keys(record), err: (err as Error).message }, 'chat answer not stored on the lead');
    }
  };
  return {
    /** Stores a turn exactly once (its seqs) and writes captured answers into the fields of the lead the chat is bound to. */
    async chatSaveTurn(turn: ChatTurnRecord): Promise<void> {
      await saveChatTurn(deps.db, turn.workspaceId, turn.sessionId, turn.messages, turn.state);
      await saveChatAutomations(deps.db, turn.workspaceId, turn.sessionId, turn.automations ?? []);
      // A run started before its session was unbound (migration 020) still names the lead: the session decides.
      if (turn.leadId && turn.captures.length && (await chatSessionLead(deps.db, turn.sessionId)) === turn.leadId) {
        await capture(turn.workspaceId, turn.leadId, turn.captures);
      }
      for (const s of turn.skipped) deps.logger.info({ sessionId: turn.sessionId, node: s.node, reason: s.reason }, 'chat automation node skipped');
    },
    /** Whether the conversation is still bound to the lead (an automation node reads the lead's data only then). */
    async chatLeadBound(c: { sessionId: string; leadId: string }): Promise<boolean> {
      return (await chatSessionLead(deps.db, c.sessionId)) === c.leadId;
    },
    async chatModelReply(turn: ChatTurnInput): Promise<string> {
      return deps.model.reply(turn);
    },
    async chatModelClassify(args: { labels: string[]; input: string }): Promise<string | undefined> {
      return deps.model.classify(args);
    },
  };
}

export type ChatActivities = ReturnType<typeof createChatActivities>;
