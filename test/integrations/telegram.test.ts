import type { Connection } from '../../src/integrations/define';
import { vendorFakeRunner } from '../helpers/integration-harness';
import { telegram as cases } from './cases/telegram';

// Telegram publishes only HTML documentation (see ../shared/vendor-apis/INDEX.md): exact requests only.
const TOKEN = '123456:ABC-DEF_ghi';
const SEND = `/bot${TOKEN}/sendMessage`;

// The requests of every action are the cases in ./cases/telegram.ts; these are the variants, failures and refusals.
describe('telegram send_message', () => {
  const h = vendorFakeRunner(cases, 'req-1');
  const run = (params: unknown, conn?: Connection) => h.run('send_message', params, conn);

  it('ok:false is a failure, even in a 200', async () => {
    h.fake.on('POST', SEND, { status: 200, body: { ok: false, error_code: 400, description: 'Bad Request: chat not found' } });
    await expect(run({ chat_id: 1, text: 'x' })).rejects.toMatchObject({
      type: 'vendor_error_in_body',
      retryable: false,
      attempts: 1,
      message: 'Telegram said Bad Request: chat not found',
    });
  });

  it('a revoked token (401) asks to reconnect; a malformed one sends nothing', async () => {
    h.fake.on('POST', SEND, { status: 401, body: { ok: false, error_code: 401, description: 'Unauthorized' } });
    await expect(run({ chat_id: 1, text: 'x' })).rejects.toMatchObject({
      type: 'vendor_auth_failed',
      message: expect.stringMatching(/Unauthorized.*reconnect/),
    });
    h.fake.clear();
    await expect(run({ chat_id: 1, text: 'x' }, { ...h.connection, secrets: { bot_token: '../admin' } })).rejects.toMatchObject({ type: 'vendor_auth_failed' });
    expect(h.fake.requests).toHaveLength(0);
  });

  it('refuses bad params with every problem and sends nothing', async () => {
    await expect(run({ chat_id: 'general', text: '', parse_mode: 'rtf' })).rejects.toMatchObject({
      type: 'invalid_params',
      problems: expect.arrayContaining([expect.stringMatching(/^chat_id:/), expect.stringMatching(/^text:/), expect.stringMatching(/^parse_mode:/)]),
    });
    expect(h.fake.requests).toHaveLength(0);
  });
});
