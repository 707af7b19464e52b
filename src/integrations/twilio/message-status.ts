import { z } from 'zod';
import { defineAction, VendorError } from '../define';

const input = z
  .object({
    sid: z
      .string()
      .regex(/^(SM|MM)[0-9a-fA-F]{32}$/, 'a Message SID (SM… or MM…)')
      .describe('The sid send_sms returned'),
  })
  .strict();

const output = z.object({
  sid: z.string(),
  status: z.string().describe('queued, sending, sent, delivered, undelivered, failed, received, …'),
  to: z.string(),
  error_code: z.number().nullable(),
  error_message: z.string().nullable(),
  date_sent: z.string().nullable(),
});

interface Message {
  sid: string;
  status: string;
  to: string;
  error_code?: number | null;
  error_message?: string | null;
  date_sent?: string | null;
}

/** A sent message's delivery status (fetch a Message resource). */
export default defineAction({
  key: 'get_message_status',
  title: 'Get an SMS status',
  input,
  output,
  idempotent: true,
  docs: 'https://www.twilio.com/docs/messaging/api/message-resource#fetch-a-message-resource',
  async run(p, { http, connection }) {
    const accountSid = connection.settings.account_sid ?? connection.secrets.account_sid;
    if (!accountSid) throw new VendorError('vendor_auth_failed', 'the twilio connection has no account_sid; reconnect the integration', false);
    const res = await http.request<Message>({ method: 'GET', path: `/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages/${p.sid}.json` });
    const m = res.body;
    return { sid: m.sid, status: m.status, to: m.to, error_code: m.error_code ?? null, error_message: m.error_message ?? null, date_sent: m.date_sent ?? null };
  },
});
