import { VendorError, type ActionContext, type QueryValue } from '../define';

/** An E.164 number. */
export const E164 = /^\+[1-9]\d{6,14}$/;

/** What a created Message returns. */
export interface SentMessage {
  sid: string;
  status: string;
  to: string;
}

/** Creates a Message (form-encoded) with Twilio's idempotency token, so a replay of the run sends once. */
export async function createMessage(ctx: ActionContext, form: Record<string, QueryValue>): Promise<SentMessage> {
  const accountSid = ctx.connection.settings.account_sid ?? ctx.connection.secrets.account_sid;
  if (!accountSid) throw new VendorError('vendor_auth_failed', 'the twilio connection has no account_sid; reconnect the integration', false);
  const res = await ctx.http.request<SentMessage>({
    method: 'POST',
    path: `/2010-04-01/Accounts/${encodeURIComponent(accountSid)}/Messages.json`,
    headers: { 'I-Twilio-Idempotency-Token': ctx.idempotencyKey },
    form,
  });
  return { sid: res.body.sid, status: res.body.status, to: res.body.to };
}
