import { defineIntegration, VendorError, type Connection, type VendorResponse } from '../define';
import sendEmail from './send-email';
import sendTemplate from './send-template';

function token(conn: Connection): string {
  const t = conn.secrets.server_token ?? conn.secrets.api_key;
  if (!t) throw new VendorError('vendor_auth_failed', 'the postmark connection holds no server_token; reconnect the integration', false);
  return t;
}

/** Postmark reports failures as `{ErrorCode, Message}`; ErrorCode 0 is success, any other code is a failure even on 200. */
function errorInBody(res: VendorResponse): VendorError | undefined {
  const body = res.body as { ErrorCode?: number; Message?: string } | undefined;
  if (!body || typeof body !== 'object' || typeof body.ErrorCode !== 'number' || body.ErrorCode === 0) return undefined;
  return new VendorError('vendor_error_in_body', `Postmark said ${body.Message ?? 'an error'} (ErrorCode ${body.ErrorCode})`, false, res.status);
}

/** Postmark, by a server API token (X-Postmark-Server-Token). */
export default defineIntegration({
  key: 'postmark',
  name: 'Postmark',
  auth: { kinds: ['api_key'], apply: (conn) => ({ headers: { 'x-postmark-server-token': token(conn) } }) },
  baseUrl: 'https://api.postmarkapp.com',
  errorInBody,
  actions: [sendEmail, sendTemplate],
});
