import { z } from 'zod';
import { VendorError, type ActionContext } from '../define';

/** The Graph API version the adapter is written against (a connection's `api_version` setting overrides it). */
const GRAPH_VERSION = 'v23.0';

/** WhatsApp wants the number in international form; a leading + is accepted and dropped. */
export const recipient = z
  .string()
  .regex(/^\+?[1-9]\d{6,14}$/, 'a phone number in international form, e.g. +14155550100')
  .transform((v) => v.replace(/^\+/, ''))
  .describe('Recipient phone number (E.164)');

/** The message's answer: the WhatsApp id of the recipient and of the message. */
export const sendOutput = z.object({ messageId: z.string(), waId: z.string().nullable(), status: z.string().nullable() });

/** Posts one message object from the connection's business phone number. */
export async function sendMessage(ctx: ActionContext, message: Record<string, unknown>): Promise<z.infer<typeof sendOutput>> {
  const phoneNumberId = ctx.connection.settings.phone_number_id;
  if (!phoneNumberId || !/^\d+$/.test(phoneNumberId))
    throw new VendorError(
      'vendor_auth_failed',
      'the whatsapp connection needs the phone_number_id setting of the sending number; reconnect the integration',
      false,
    );
  const version = ctx.connection.settings.api_version ?? GRAPH_VERSION;
  const res = await ctx.http.request<{ contacts?: Array<{ wa_id?: string }>; messages?: Array<{ id: string; message_status?: string }> }>({
    method: 'POST',
    path: `/${version}/${phoneNumberId}/messages`,
    json: { messaging_product: 'whatsapp', recipient_type: 'individual', ...message },
  });
  const sent = res.body.messages?.[0];
  if (!sent?.id) throw new VendorError('vendor_error_in_body', 'WhatsApp answered without a message id', false, res.status);
  return { messageId: sent.id, waId: res.body.contacts?.[0]?.wa_id ?? null, status: sent.message_status ?? null };
}
