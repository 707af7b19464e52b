import type { IntegrationCases } from '../../helpers/action-cases';

// Telegram publishes only HTML documentation (see ../shared/vendor-apis/INDEX.md): exact requests only.
const TOKEN = '123456:ABC-DEF_ghi';

/** Telegram Bot API: the bot token in the path. */
export const telegram: IntegrationCases = {
  integration: 'telegram',
  connection: { kind: 'api_key', secrets: { bot_token: TOKEN } },
  cases: [
    {
      action: 'send_message',
      params: {
        chat_id: '-1001234',
        text: '*New lead*',
        parse_mode: 'MarkdownV2',
        disable_notification: true,
        reply_to_message_id: 54,
        disable_link_preview: true,
      },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: `/bot${TOKEN}/sendMessage`,
            headers: { authorization: null, 'content-type': 'application/json' },
            body: {
              chat_id: '-1001234',
              text: '*New lead*',
              parse_mode: 'MarkdownV2',
              disable_notification: true,
              reply_parameters: { message_id: 54 },
              link_preview_options: { is_disabled: true },
            },
          },
          response: {
            status: 200,
            body: { ok: true, result: { message_id: 55, chat: { id: -1001234, type: 'supergroup' }, date: 1763900000, text: 'New lead' } },
          },
        },
      ],
      data: { message_id: 55, chat_id: -1001234, date: 1763900000 },
    },
  ],
};
