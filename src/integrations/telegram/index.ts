import { defineIntegration, VendorError, type VendorResponse } from '../define';
import sendMessage from './send-message';

/** The Bot API answers `{ok:false, error_code, description}`; a 2xx carrying ok:false is still a failure. */
function errorInBody(res: VendorResponse): VendorError | undefined {
  const body = res.body as { ok?: boolean; description?: string; error_code?: number } | undefined;
  if (!body || typeof body !== 'object' || body.ok !== false) return undefined;
  return new VendorError('vendor_error_in_body', `Telegram said ${body.description ?? 'ok:false'}`, false, res.status);
}

/** Telegram Bot API, by a bot token (it goes in the URL path: /bot<token>/<method>). */
export default defineIntegration({
  key: 'telegram',
  name: 'Telegram',
  auth: { kinds: ['api_key'], apply: () => ({}) },
  baseUrl: 'https://api.telegram.org',
  errorInBody,
  actions: [sendMessage],
});
