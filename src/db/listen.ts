import { Client } from 'pg';
import type { Logger } from 'pino';

/** A running LISTEN; close() stops it and its reconnects. */
export interface Listener {
  /** Whether the LISTEN connection is up now (notifications are being received). */
  readonly connected: boolean;
  close(): Promise<void>;
}

/**
 * Called with a notification's payload, or with undefined when notifications may have been missed (the connection
 * was lost, or came back): a cache should then forget everything.
 */
export type OnNotify = (payload: string | undefined) => void;

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * LISTENs on a channel over a connection of its own (a pooled client would be handed back and lose it), and
 * reconnects every retryMs after losing it, until closed. Resolves after the first attempt, connected or not.
 */
export async function listenWithReconnect(
  url: string,
  channel: string,
  onNotify: OnNotify,
  opts: { logger?: Logger; retryMs?: number } = {},
): Promise<Listener> {
  if (!CHANNEL.test(channel)) throw new Error(`not a channel name: ${channel}`);
  const retryMs = opts.retryMs ?? 1000;
  let closed = false;
  let client: Client | undefined;
  let timer: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    const c = new Client({ connectionString: url, application_name: `switchboard-listen:${channel}` });
    let lost = false;
    const onLost = (err?: Error) => {
      if (lost) return;
      lost = true;
      if (client === c) client = undefined;
      c.end().catch(() => undefined);
      if (closed) return;
      opts.logger?.warn({ channel, err: err?.message }, 'listener lost its connection');
      onNotify(undefined);
      timer = setTimeout(() => void connect(), retryMs);
      timer.unref();
    };
    c.on('notification', (msg) => {
      if (msg.channel === channel) onNotify(msg.payload);
    });
    c.on('error', onLost);
    c.on('end', () => onLost());
    try {
      await c.connect();
      await c.query(`LISTEN ${channel}`);
    } catch (err) {
      onLost(err as Error);
      return;
    }
    if (closed) {
      await c.end().catch(() => undefined);
      return;
    }
    client = c;
    // Whatever was announced while the connection was down is unknown.
    onNotify(undefined);
  };

  await connect();
  return {
    get connected() {
      return client !== undefined && !closed;
    },
    async close() {
      closed = true;
      clearTimeout(timer);
      await client?.end().catch(() => undefined);
    },
  };
}
