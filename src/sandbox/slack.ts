import { createHash } from 'node:crypto';
import { z } from 'zod';
import { objectBody, SANDBOX_PREFIXES, SANDBOX_TOKEN, type SandboxVendor, type VendorAnswer } from './vendor';

// chat.postMessage's arguments (slack.json); Slack ignores ones it does not know.
const postMessage = z
  .object({
    channel: z.string().min(1),
    text: z.string().optional(),
    blocks: z.union([z.array(z.unknown()), z.string()]).optional(),
    attachments: z.union([z.array(z.unknown()), z.string()]).optional(),
    thread_ts: z
      .string()
      .regex(/^\d+\.\d+$/)
      .optional(),
    username: z.string().optional(),
  })
  .loose();

/** Slack answers 200 with ok:false and an error code for every failure of a Web API method. */
const fail = (error: string): VendorAnswer => ({ status: 200, body: { ok: false, error } });

/** A channel id for a name, as Slack would resolve it (the same name gives the same id). */
const channelId = (channel: string) =>
  /^[CGD][A-Z0-9]{6,}$/.test(channel) ? channel : `C${createHash('sha256').update(channel.replace(/^#/, '')).digest('hex').slice(0, 10).toUpperCase()}`;

/** Slack's Web API: chat.postMessage. */
export function slackSandbox(): SandboxVendor {
  let seq = 0;
  return {
    integration: 'slack',
    prefix: SANDBOX_PREFIXES.slack,
    handle(call) {
      if (call.method !== 'POST' || call.path !== '/chat.postMessage') return { status: 404, body: { ok: false, error: 'unknown_method' } };
      if (!call.token) return fail('not_authed');
      if (call.token !== SANDBOX_TOKEN) return fail('invalid_auth');
      const body = objectBody(call.body);
      if (!body) return fail('invalid_arguments');
      const parsed = postMessage.safeParse(body);
      if (!parsed.success) return fail(parsed.error.issues.some((i) => i.path[0] === 'channel') ? 'channel_not_found' : 'invalid_arguments');
      const p = parsed.data;
      if (!p.text && !p.blocks && !p.attachments) return fail('no_text');
      const ts = `${Math.floor(Date.now() / 1000)}.${String(++seq).padStart(6, '0')}`;
      const channel = channelId(p.channel);
      const message = {
        type: 'message',
        subtype: 'bot_message',
        text: p.text ?? '',
        ts,
        bot_id: 'B0SANDBOX',
        ...(p.thread_ts ? { thread_ts: p.thread_ts } : {}),
      };
      return { status: 200, body: { ok: true, channel, ts, message } };
    },
  };
}
