import { randomUUID } from 'node:crypto';
import type WebSocket from 'ws';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import type { Logger } from '../../telemetry/log';
import type { ChatMessageRow } from '../db/chat';
import { FLOW_ENDED_TYPE, type ChatTurn } from '../../../workflows/chat/chat-messages';
import type { Conversation } from './conversation';
import { CLOSE, parseClientFrame, type ServerFrame } from './frames';

/** Settings every chat socket of a process shares (one object, not one per socket). */
export interface ChatSocketOptions {
  silenceGraceMs: number;
  framesPerSecond: number;
  log: Logger;
}

// The turn chain of every socket starts from one settled promise (an idle socket allocates none).
const settled = Promise.resolve();

/** One open chat socket: answers the client's frames, one message turn at a time. */
export class ChatSocket {
  private turns: Promise<void> = settled;
  private tokens: number;
  private refilled = Date.now();
  /** When the client last sent a frame (epoch ms): ChatSockets' one sweep closes sockets silent too long. */
  private lastFrame = Date.now();
  private ended = false;

  constructor(
    private readonly ws: WebSocket,
    readonly conversation: Conversation,
    private readonly o: ChatSocketOptions,
    /** The name on recv frames: the lead's name, or "Anonymous". */
    private readonly userName: string,
  ) {
    this.tokens = o.framesPerSecond * 2;
  }

  /** Closes the socket when no frame came within the grace period. */
  closeIfSilent(now: number): void {
    if (now - this.lastFrame >= this.o.silenceGraceMs)
      this.close(CLOSE.silent, `No frame within ${Math.round(this.o.silenceGraceMs / 1000)} s (send a heartbeat every 15 s)`);
  }

  /** Sends one frame of the protocol (ServerFrame, documented in the AsyncAPI document). */
  send(frame: ServerFrame): void {
    if (this.ws.readyState === this.ws.OPEN) this.ws.send(JSON.stringify(frame));
  }

  close(code: number, reason: string): void {
    if (this.ws.readyState === this.ws.OPEN || this.ws.readyState === this.ws.CONNECTING) this.ws.close(code, reason);
  }

  /** A stored message as the frame the client sees: the bot's as message, the user's as recv. */
  sendMessage(m: Pick<ChatMessageRow, 'id' | 'sender' | 'content'>): void {
    const { flow } = this.conversation;
    if (m.sender === 'bot') this.send({ type: 'message', id: m.id, profilepic: flow.owner_picture ?? '', name: flow.owner_name, content: m.content });
    else this.send({ type: 'recv', id: m.id, profilepic: '', name: this.userName, content: m.content });
  }

  /** Sends a turn's replies, and the end (then a close) when the flow ended. */
  sendTurn(turn: ChatTurn): void {
    for (const r of turn.replies) this.sendMessage(r);
    if (turn.ended) this.end();
  }

  end(): void {
    this.ended = true;
    this.send({ type: 'end', session_id: this.conversation.session.id });
    this.close(CLOSE.normal, 'Flow has ended');
  }

  /** Handles one frame from the client. */
  receive(data: WebSocket.RawData, isBinary: boolean): void {
    this.lastFrame = Date.now();
    if (!this.admit()) {
      this.send({ type: 'error', message: `Too many frames: at most ${this.o.framesPerSecond} per second` });
      this.close(CLOSE.policy, 'Too many frames');
      return;
    }
    if (isBinary) return this.send({ type: 'error', message: 'Binary frames are not supported: send JSON text frames' });
    const frame = parseClientFrame(data.toString());
    if (typeof frame === 'string') return this.send({ type: 'error', message: frame });
    switch (frame.type) {
      case 'ping':
        return this.send({ type: 'pong' });
      case 'typing':
      case 'heartbeat':
        return;
      case 'message': {
        if (this.ended) return this.send({ type: 'error', message: 'Flow has ended' });
        const id = randomUUID();
        this.sendMessage({ id, sender: 'user', content: frame.message });
        this.turns = this.turns.then(() => this.turn(id, frame.message));
        return;
      }
    }
  }

  private async turn(id: string, text: string): Promise<void> {
    try {
      this.sendTurn(await this.conversation.send(id, text));
    } catch (err) {
      if (err instanceof WorkflowUpdateFailedError && (err.cause as { type?: string } | undefined)?.type === FLOW_ENDED_TYPE) {
        this.send({ type: 'error', message: 'Flow has ended' });
        return this.end();
      }
      this.o.log.error({ sessionId: this.conversation.session.id, err: (err as Error).message }, 'chat turn failed');
      this.send({ type: 'error', message: 'The message could not be answered, please send it again' });
    }
  }

  // A token bucket: a burst of twice the rate, refilled continuously.
  private admit(): boolean {
    const now = Date.now();
    const cap = this.o.framesPerSecond * 2;
    this.tokens = Math.min(cap, this.tokens + ((now - this.refilled) / 1000) * this.o.framesPerSecond);
    this.refilled = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
