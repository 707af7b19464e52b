import { createHash } from 'node:crypto';
import type { IntegrationCases } from '../../helpers/action-cases';

const KEY = '0123456789abcdef0123456789abcdef-us6';
const H = { authorization: `Basic ${Buffer.from(`switchboard:${KEY}`).toString('base64')}` };
const MEMBER = `/3.0/lists/57afe96172/members/${createHash('md5').update('ada@example.com').digest('hex')}`;

/** Mailchimp Marketing: API key as Basic password, the data centre from the key; members by MD5 of the email. */
export const mailchimp: IntegrationCases = {
  integration: 'mailchimp',
  connection: { kind: 'api_key', secrets: { api_key: KEY } },
  cases: [
    {
      action: 'upsert_member',
      params: { list_id: '57afe96172', email_address: 'Ada@Example.com', merge_fields: { FNAME: 'Ada', PHONE: '+15551234567' }, tags: ['ai-call'] },
      exchanges: [
        {
          request: {
            method: 'PUT',
            path: MEMBER,
            headers: { ...H, 'content-type': 'application/json' },
            body: { email_address: 'Ada@Example.com', status_if_new: 'subscribed', merge_fields: { FNAME: 'Ada', PHONE: '+15551234567' }, tags: ['ai-call'] },
          },
          response: { status: 200, body: { id: 'md5-of-email', status: 'subscribed' } },
        },
      ],
      data: { id: 'md5-of-email', status: 'subscribed' },
    },
    {
      action: 'add_tags',
      params: { list_id: '57afe96172', email_address: 'ada@example.com', tags: ['hot'], remove: ['cold'] },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: `${MEMBER}/tags`,
            headers: H,
            body: {
              tags: [
                { name: 'hot', status: 'active' },
                { name: 'cold', status: 'inactive' },
              ],
            },
          },
          response: { status: 204 },
        },
      ],
      data: { updated: true },
    },
    {
      action: 'add_note',
      params: { list_id: '57afe96172', email_address: 'ada@example.com', note: 'Booked a call' },
      exchanges: [
        {
          request: { method: 'POST', path: `${MEMBER}/notes`, headers: H, body: { note: 'Booked a call' } },
          response: { status: 200, body: { id: 12, note: 'x' } },
        },
      ],
      data: { id: 12 },
    },
  ],
};
