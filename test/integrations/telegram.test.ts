import type { Connection } from '../../src/integrations/define';
import { runIntegrationAction } from '../../src/integrations/run';
import { startVendorFake, type VendorFake } from '../helpers/vendor-fake';

// Telegram publishes only HTML documentation (see ../shared/vendor-apis/INDEX.md): exact requests only.
const TOKEN = '123456:ABC-DEF_ghi';
const connection: Connection = { id: 'c1', integration: 'telegram', kind: 'api_key', secrets: { bot_token: TOKEN }, settings: {} };
const SEND = `/bot${TOKEN}/sendMessage`;

describe('telegram send_message', () => {
  let fake: VendorFake;
  const run = (params: unknown, conn = connection) =>
    runIntegrationAction({ integration: 'telegram', action: 'send_message', params, connection: conn, idempotencyKey: 'req-1', baseUrls: { telegram: fake.url }, ssrfAllowlist: ['127.0.0.1/8'] });

  beforeAll(async () => {
    fake = await startVendorFake();
  });
  afterAll(() => fake.stop());
  beforeEach(() => fake.clear());

  it('posts sendMessage to the bot\'s URL with reply and preview options in the current shape', async () => {
    fake.on('POST', SEND, { status: 200, body: { ok: true, result: { message_id: 55, chat: { id: -1001234, type: 'supergroup' }, date: 1763900000, text: 'New lead' } } });
    const out = await run({ chat_id: '-1001234', text: '*New lead*', parse_mode: 'MarkdownV2', disable_notification: true, reply_to_message_id: 54, disable_link_preview: true });
    expect(out).toEqual({ data: { message_id: 55, chat_id: -1001234, date: 1763900000 }, attempts: 1, action: 'send_message' });
    const [req] = fake.requests;
    expect(req!.method).toBe('POST');
    expect(req!.query).toEqual({});
    expect(req!.headers.authorization).toBeUndefined();
    expect(req!.headers['content-type']).toBe('application/json');
    expect(req!.body).toEqual({ chat_id: '-1001234', text: '*New lead*', parse_mode: 'MarkdownV2', disable_notification: true, reply_parameters: { message_id: 54 }, link_preview_options: { is_disabled: true } });
  });

  it('ok:false is a failure, even in a 200', async () => {
    fake.on('POST', SEND, { status: 200, body: { ok: false, error_code: 400, description: 'Bad Request: chat not found' } });
    await expect(run({ chat_id: 1, text: 'x' })).rejects.toMatchObject({ type: 'vendor_error_in_body', retryable: false, attempts: 1, message: 'Telegram said Bad Request: chat not found' });
  });

  it('a revoked token (401) asks to reconnect; a malformed one sends nothing', async () => {
    fake.on('POST', SEND, { status: 401, body: { ok: false, error_code: 401, description: 'Unauthorized' } });
    await expect(run({ chat_id: 1, text: 'x' })).rejects.toMatchObject({ type: 'vendor_auth_failed', message: expect.stringMatching(/Unauthorized.*reconnect/) });
    fake.clear();
    await expect(run({ chat_id: 1, text: 'x' }, { ...connection, secrets: { bot_token: '../admin' } })).rejects.toMatchObject({ type: 'vendor_auth_failed' });
    expect(fake.requests).toHaveLength(0);
  });

  it('refuses bad params with every problem and sends nothing', async () => {
    await expect(run({ chat_id: 'general', text: '', parse_mode: 'rtf' })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: expect.arrayContaining([expect.stringMatching(/^chat_id:/), expect.stringMatching(/^text:/), expect.stringMatching(/^parse_mode:/)]),
    });
    expect(fake.requests).toHaveLength(0);
  });
});
