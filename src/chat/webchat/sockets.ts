import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type WebSocket from 'ws';
import type { Logger } from '../../telemetry/log';
import { chatMessageSeq, chatMessagesAfter, findChatSession, findFlow, latestBotMessage, type ChatMessageRow, type ChatSessionRow } from '../db/chat';
import { findLeadById } from '../../leads/db/leads';
import { isUuid } from '../../core/ids';
import { Coalescer } from '../../core/coalesce';
import { ChatSocket, type ChatSocketOptions } from './chat-socket';
import { Conversation, type ConversationDeps, type Unsaved } from './conversation';
import { CLOSE } from './frames';
import { originAllowed } from './origins';
import { openNewConversation, type UnstoredConversation } from './opening';
import type { ChatCarried } from '../../../workflows/chat/chat-messages';

const PATH = /^\/webchat\/flow\/([^/]+)\/session\/([^/]+)\/r\/([^/]+)\/?$/;
export const SESSION_PREFIX = 'webchat-session.';
export const isSessionId = (s: string) => s.startsWith(SESSION_PREFIX) && isUuid(s.slice(SESSION_PREFIX.length));

/** An upgrade refused before the socket opens: an HTTP status, a message, headers (Retry-After). */
type UpgradeRefusal = { status: number; message: string; headers?: Record<string, string> };

/** How upgrades count against the per-address limits (they skip Koa's middleware). */
export interface UpgradeLimits {
  /** The client's address, read as the HTTP routes read it. */
  address(req: IncomingMessage): string;
  /** Counts one upgrade (newConversation: a connect to session/null) against the shared counters. */
  count(address: string, newConversation: boolean): UpgradeRefusal | undefined;
}

// Seconds a client held at the open-socket cap is told to wait (a socket of its may close any moment).
const SOCKET_CAP_RETRY_SECONDS = 5;

/** The chat sockets of one api process. */
export class ChatSockets {
  private readonly open = new Set<ChatSocket>();
  // Sockets open (or being opened) per client address: the cap of WEBCHAT_SOCKETS_PER_ADDRESS.
  private readonly perAddress = new Map<string, number>();
  // Connects to one conversation at once (a reconnect storm after a restart, many tabs) share one `unsaved` query.
  private readonly unsavedQueries = new Coalescer<Unsaved | undefined>();
  private draining = false;
  private readonly connOptions: ChatSocketOptions;
  // One sweep for every socket's silence (not a timer per socket): it runs while sockets are open.
  private sweep: NodeJS.Timeout | undefined;

  constructor(
    private readonly deps: ConversationDeps & { logger: Logger },
    private readonly limits?: UpgradeLimits,
  ) {
    this.connOptions = { silenceGraceMs: deps.config.WEBCHAT_SILENCE_GRACE_MS, framesPerSecond: deps.config.WEBCHAT_FRAMES_PER_SECOND, log: deps.logger };
  }

  private track(conn: ChatSocket, ws: WebSocket): void {
    this.open.add(conn);
    ws.on('close', () => {
      this.open.delete(conn);
      if (this.open.size || !this.sweep) return;
      clearInterval(this.sweep);
      this.sweep = undefined;
    });
    // A silent socket is closed between one grace period and a quarter more.
    this.sweep ??= setInterval(
      () => {
        const now = Date.now();
        for (const c of this.open) c.closeIfSilent(now);
      },
      Math.max(250, Math.round(this.connOptions.silenceGraceMs / 4)),
    ).unref();
  }

  /**
   * ws's upgrade check: only the chat path is a WebSocket, none while the api drains, and each counts against the
   * per-address limits and the open-socket cap. Refusals answer in the error shape.
   */
  verifyClient = (info: { req: IncomingMessage }, done: (ok: boolean, code?: number, message?: string, headers?: Record<string, string>) => void): void => {
    const refuse = (r: UpgradeRefusal) =>
      done(false, r.status, JSON.stringify({ status: 'failed', message: r.message }), { ...r.headers, 'Content-Type': 'application/json' });
    if (this.draining) return refuse({ status: 503, message: 'Server is shutting down, retry shortly', headers: { 'Retry-After': '1' } });
    const path = (info.req.url ?? '').split('?')[0]!;
    if (!path.startsWith('/webchat/flow/')) return refuse({ status: 404, message: 'Not found' });
    if (!this.limits) return done(true);
    const address = this.limits.address(info.req);
    const cap = this.deps.config.WEBCHAT_SOCKETS_PER_ADDRESS;
    const held = this.perAddress.get(address) ?? 0;
    if (cap && held >= cap) {
      return refuse({
        status: 429,
        message: `Too many open chat sockets: at most ${cap} per client address`,
        headers: { 'Retry-After': String(SOCKET_CAP_RETRY_SECONDS) },
      });
    }
    const refusal = this.limits.count(address, PATH.exec(path)?.[2] === 'null');
    if (refusal) return refuse(refusal);
    // Held until the connection's TCP socket closes, however the handshake or the chat ends.
    this.perAddress.set(address, held + 1);
    info.req.socket.once('close', () => {
      const left = (this.perAddress.get(address) ?? 1) - 1;
      if (left > 0) this.perAddress.set(address, left);
      else this.perAddress.delete(address);
    });
    done(true);
  };

  /** Closes every chat socket (1012 on a restart: the client reconnects with r/true) and refuses new ones. */
  closeAll(code: number, reason: string): void {
    this.draining = true;
    for (const c of this.open) c.close(code, reason);
  }

  get size(): number {
    return this.open.size;
  }

  /** Serves one new socket: checks the URL, then the three opening frames (or the replay), then the client's frames. */
  async accept(ws: WebSocket, req: IncomingMessage): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://chat');
    // Frames sent before the conversation is ready wait for it, in order.
    const early: [WebSocket.RawData, boolean][] = [];
    const buffer = (data: WebSocket.RawData, isBinary: boolean) => early.push([data, isBinary]);
    ws.on('message', buffer);
    const reject = (code: number, reason: string) => ws.close(code, reason);
    const m = PATH.exec(url.pathname);
    if (!m) return reject(CLOSE.badUrl, 'Malformed chat URL: expected /webchat/flow/{flowId}/session/{sessionId|null}/r/{true|false}');
    const [, flowId, sessionParam, reconnect] = m as unknown as [string, string, string, string];
    if (!isUuid(flowId)) return reject(CLOSE.badUrl, 'Malformed chat URL: flowId must be a UUID');
    if (reconnect !== 'true' && reconnect !== 'false') return reject(CLOSE.badUrl, 'Malformed chat URL: reconnect must be true or false');
    if (sessionParam !== 'null' && !isSessionId(sessionParam)) return reject(CLOSE.notFound, 'Unknown session');
    const { db, config, logger } = this.deps;
    try {
      const flow = await findFlow(db, flowId);
      if (!flow || (sessionParam === 'null' && !flow.public_chat)) return reject(CLOSE.notFound, 'Unknown flow');
      if (!originAllowed(flow, req.headers.origin, config)) return reject(CLOSE.forbidden, 'Origin not allowed for this flow');
      let session: ChatSessionRow | undefined;
      let unstored: UnstoredConversation | undefined;
      if (sessionParam === 'null') {
        session = { id: SESSION_PREFIX + randomUUID(), workspace_id: flow.workspace_id, flow_id: flow.id, lead_id: null, state: null };
        unstored = await openNewConversation(db, logger, session.id, flow);
      } else {
        session = await findChatSession(db, sessionParam);
        if (!session) return reject(CLOSE.notFound, 'Unknown session');
        if (session.flow_id !== flow.id) return reject(CLOSE.forbidden, 'Session belongs to another flow');
      }
      if (ws.readyState !== ws.OPEN) return;
      const lead = session.lead_id ? await findLeadById(db, session.workspace_id, session.lead_id) : undefined;
      const userName = [lead?.first_name, lead?.last_name].filter(Boolean).join(' ') || 'Anonymous';
      // The connection keeps ids and the persona only: an idle socket holds neither the stored state nor the graph.
      const ref = { id: session.id, workspace_id: session.workspace_id, flow_id: session.flow_id, lead_id: session.lead_id };
      const persona = { id: flow.id, owner_name: flow.owner_name, owner_picture: flow.owner_picture };
      const conn = new ChatSocket(ws, new Conversation(this.deps, ref, persona, unstored !== undefined, unstored), this.connOptions, userName);
      this.track(conn, ws);
      if (this.draining) return conn.close(CLOSE.restart, 'Server restarting, reconnect');
      conn.send({ type: 'session', id: randomUUID(), session_id: session.id });
      conn.send({ type: 'chatowner', id: flow.id, profilepic: flow.owner_picture ?? '', name: flow.owner_name });
      if (unstored?.opening) conn.sendTurn(unstored.opening);
      else if (!unstored) await this.catchUp(conn, session, reconnect === 'true', url.searchParams.get('last'));
      ws.off('message', buffer);
      ws.on('message', (data, isBinary) => conn.receive(data, isBinary));
      for (const [data, isBinary] of early) conn.receive(data, isBinary);
    } catch (err) {
      logger.error({ flowId, err: (err as Error).message }, 'chat connection failed');
      reject(CLOSE.internal, 'Chat unavailable, retry shortly');
    }
  }

  /**
   * After session and chatowner (a new conversation got its opening already): a conversation never opened gets the opening; r/true replays what came after the
   * message id in `?last=` (everything without it); r/false repeats the latest message of the bot.
   */
  private async catchUp(conn: ChatSocket, session: ChatSessionRow, reconnect: boolean, last: string | null): Promise<void> {
    const { db } = this.deps;
    const state = session.state as ChatCarried | null;
    if (!state?.opened) {
      const turn = await conn.conversation.open();
      if (turn.replies.length) return conn.sendTurn(turn);
    }
    // The run's answered-but-unstored messages (their write follows the reply) complete what Postgres has. A flow
    // stored as ended has nothing unstored: the end is written with its last turn, and an ended run takes no more.
    const storedEnded = state?.engine.ended === true;
    const unsaved = storedEnded ? undefined : await this.unsavedQueries.run(session.id, () => conn.conversation.unsaved());
    const merged = (rows: ChatMessageRow[]) => {
      const seen = new Set(rows.map((m) => m.seq));
      return [...rows, ...(unsaved?.messages ?? []).filter((m) => !seen.has(m.seq))].sort((a, b) => a.seq - b.seq);
    };
    if (reconnect) {
      const after = last && isUuid(last) ? ((await chatMessageSeq(db, session.id, last)) ?? unsaved?.messages.find((m) => m.id === last)?.seq ?? 0) : 0;
      for (const m of merged(await chatMessagesAfter(db, session.id, after)).filter((m) => m.seq > after)) conn.sendMessage(m);
    } else {
      const stored = await latestBotMessage(db, session.id);
      const latest = merged(stored ? [stored] : [])
        .filter((m) => m.sender === 'bot')
        .at(-1);
      if (latest) conn.sendMessage(latest);
    }
    const ended = storedEnded || unsaved?.ended || ((await findChatSession(db, session.id))?.state as ChatCarried | null)?.engine.ended;
    if (ended) conn.end();
  }
}
