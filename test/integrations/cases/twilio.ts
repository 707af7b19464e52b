import type { IntegrationCases } from '../../helpers/action-cases';

const SID = 'AC0123456789abcdef0123456789abcdef';
const MESSAGES = `/2010-04-01/Accounts/${SID}/Messages.json`;
const H = {
  authorization: `Basic ${Buffer.from(`${SID}:tok-secret`).toString('base64')}`,
  'i-twilio-idempotency-token': '{requestId}',
  'content-type': 'application/x-www-form-urlencoded',
};
const CONTENT_SID = `HX${'b'.repeat(32)}`;

/** Twilio Messaging: account SID and auth token as Basic, form bodies, the run's idempotency token. */
export const twilio: IntegrationCases = {
  integration: 'twilio',
  connection: { kind: 'basic', secrets: { auth_token: 'tok-secret' }, settings: { account_sid: SID } },
  spec: { file: 'twilio.json' },
  cases: [
    {
      action: 'send_sms',
      params: {
        to: '+14155550100',
        from: '+14155550199',
        body: 'Your booking is confirmed',
        mediaUrl: ['https://example.com/a.png', 'https://example.com/b.png'],
      },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: MESSAGES,
            headers: H,
            body: {
              To: '+14155550100',
              From: '+14155550199',
              Body: 'Your booking is confirmed',
              MediaUrl: ['https://example.com/a.png', 'https://example.com/b.png'],
            },
          },
          response: { status: 201, body: { sid: 'SM1', status: 'queued', to: '+14155550100' } },
        },
      ],
      data: { sid: 'SM1', status: 'queued', to: '+14155550100' },
    },
    {
      action: 'send_sms',
      name: 'a custom field from callData',
      params: { to: 'caller_phone', from: '+14155550199', body: 'hi', customFields: [{ field: 'to', customFieldEnabled: true }] },
      callData: { fields: { caller_phone: '+14155550111' } },
      exchanges: [
        {
          request: { method: 'POST', path: MESSAGES, headers: H, body: { To: '+14155550111', From: '+14155550199', Body: 'hi' } },
          response: { status: 201, body: { sid: 'SM2', status: 'queued', to: '+14155550111' } },
        },
      ],
      data: { sid: 'SM2', status: 'queued', to: '+14155550111' },
    },
    {
      action: 'send_whatsapp',
      params: { to: '+14155550100', from: '+14155550199', contentSid: CONTENT_SID, contentVariables: { 1: 'Ada', 2: 'Tuesday' } },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: MESSAGES,
            headers: H,
            body: { To: 'whatsapp:+14155550100', From: 'whatsapp:+14155550199', ContentSid: CONTENT_SID, ContentVariables: '{"1":"Ada","2":"Tuesday"}' },
          },
          response: { status: 201, body: { sid: 'SM4', status: 'queued', to: 'whatsapp:+14155550100' } },
        },
      ],
      data: { sid: 'SM4', status: 'queued', to: 'whatsapp:+14155550100' },
    },
    {
      action: 'get_message_status',
      params: { sid: `SM${'a'.repeat(32)}` },
      exchanges: [
        {
          request: { method: 'GET', path: `/2010-04-01/Accounts/${SID}/Messages/SM${'a'.repeat(32)}.json`, headers: { authorization: H.authorization } },
          response: {
            status: 200,
            body: {
              sid: `SM${'a'.repeat(32)}`,
              status: 'undelivered',
              to: '+14155550100',
              error_code: 30003,
              error_message: 'Unreachable destination handset',
              date_sent: 'Tue, 01 Dec 2026 09:00:00 +0000',
            },
          },
        },
      ],
      data: {
        sid: `SM${'a'.repeat(32)}`,
        status: 'undelivered',
        to: '+14155550100',
        error_code: 30003,
        error_message: 'Unreachable destination handset',
        date_sent: 'Tue, 01 Dec 2026 09:00:00 +0000',
      },
      notDescribed: 'twilio.json keeps the Messages and Calls create operations only',
    },
  ],
};
