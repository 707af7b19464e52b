import { defineIntegration, VendorError, type Connection } from '../define';
import getMessageStatus from './message-status';
import sendSms from './send-sms';
import sendWhatsapp from './send-whatsapp';

/** Twilio's HTTP Basic pair: an API key (SK…:secret) when the connection has one, else AccountSid:AuthToken. */
function basic(conn: Connection): string {
  const { api_key_sid: keySid, api_key_secret: keySecret, auth_token: authToken } = conn.secrets;
  const accountSid = conn.settings.account_sid ?? conn.secrets.account_sid;
  const pair = keySid && keySecret ? `${keySid}:${keySecret}` : accountSid && authToken ? `${accountSid}:${authToken}` : undefined;
  if (!pair)
    throw new VendorError(
      'vendor_auth_failed',
      'the twilio connection needs account_sid and auth_token (or api_key_sid and api_key_secret); reconnect the integration',
      false,
    );
  return `Basic ${Buffer.from(pair).toString('base64')}`;
}

/** Twilio Programmable Messaging (SMS, MMS, WhatsApp; 2010-04-01 API), by HTTP Basic auth. */
export default defineIntegration({
  key: 'twilio',
  name: 'Twilio',
  auth: { kinds: ['basic', 'api_key'], apply: (conn) => ({ headers: { authorization: basic(conn) } }) },
  baseUrl: 'https://api.twilio.com',
  apiDescription: 'twilio.json',
  actions: [sendSms, sendWhatsapp, getMessageStatus],
});
