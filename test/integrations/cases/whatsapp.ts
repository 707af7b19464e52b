import type { IntegrationCases } from '../../helpers/action-cases';
import { whatsappCheck } from '../../helpers/whatsapp-spec';

const MESSAGES = '/v23.0/106540352242922/messages';
const H = { authorization: 'Bearer EAAGtest', 'content-type': 'application/json' };
const SENT = { messaging_product: 'whatsapp', contacts: [{ input: '+14155550100', wa_id: '14155550100' }], messages: [{ id: 'wamid.HBgL' }] };

/** WhatsApp Cloud API: system-user token as bearer, messages from the connection's phone number id. */
export const whatsapp: IntegrationCases = {
  integration: 'whatsapp',
  connection: { kind: 'api_key', secrets: { access_token: 'EAAGtest' }, settings: { phone_number_id: '106540352242922' } },
  spec: { file: 'whatsapp.json', validator: whatsappCheck },
  cases: [
    {
      action: 'send_template',
      params: { to: '+14155550100', name: 'appointment_reminder', language: 'en_US', bodyParameters: ['Ada', 'Tuesday 10:00'] },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: MESSAGES,
            headers: H,
            body: {
              messaging_product: 'whatsapp',
              recipient_type: 'individual',
              to: '14155550100',
              type: 'template',
              template: {
                name: 'appointment_reminder',
                language: { policy: 'deterministic', code: 'en_US' },
                components: [
                  {
                    type: 'body',
                    parameters: [
                      { type: 'text', text: 'Ada' },
                      { type: 'text', text: 'Tuesday 10:00' },
                    ],
                  },
                ],
              },
            },
          },
          response: { status: 200, body: { ...SENT, messages: [{ id: 'wamid.HBgL', message_status: 'accepted' }] } },
        },
      ],
      data: { messageId: 'wamid.HBgL', waId: '14155550100', status: 'accepted' },
    },
    {
      action: 'send_text',
      params: { to: '14155550100', body: 'See you Tuesday https://example.com', previewUrl: true },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: MESSAGES,
            headers: H,
            body: {
              messaging_product: 'whatsapp',
              recipient_type: 'individual',
              to: '14155550100',
              type: 'text',
              text: { body: 'See you Tuesday https://example.com', preview_url: true },
            },
          },
          response: { status: 200, body: SENT },
        },
      ],
      data: { messageId: 'wamid.HBgL', waId: '14155550100', status: null },
    },
  ],
};
