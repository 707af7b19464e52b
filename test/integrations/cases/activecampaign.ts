import type { IntegrationCases } from '../../helpers/action-cases';

const H = { 'api-token': 'ac-key-123', authorization: null };

/** ActiveCampaign: the account's own API URL comes from the connection (no override). */
export const activecampaign: IntegrationCases = {
  integration: 'activecampaign',
  connection: { kind: 'api_key', secrets: { api_key: 'ac-key-123' }, settings: { account_url: '{fake}' } },
  base: null,
  cases: [
    {
      action: 'sync_contact',
      params: { email: 'ada@example.com', firstName: 'Ada', phone: '+15551234567', custom_field_values: { '1': 'booked', '7': 3 } },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/api/3/contact/sync',
            headers: { ...H, 'content-type': 'application/json' },
            body: {
              contact: {
                email: 'ada@example.com',
                firstName: 'Ada',
                phone: '+15551234567',
                fieldValues: [
                  { field: '1', value: 'booked' },
                  { field: '7', value: '3' },
                ],
              },
            },
          },
          response: { status: 201, body: { contact: { id: '113', email: 'ada@example.com' } } },
        },
      ],
      data: { id: '113' },
    },
    {
      action: 'sync_contact',
      name: 'custom fields from callData',
      params: {
        email: 'ada@example.com',
        custom_field_values: { '4': 'summary' },
        customFields: [{ field: 'custom_field_values.4', customFieldEnabled: true }],
      },
      callData: { fields: { summary: 'Wants a demo on Friday' } },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/api/3/contact/sync',
            headers: H,
            body: { contact: { email: 'ada@example.com', fieldValues: [{ field: '4', value: 'Wants a demo on Friday' }] } },
          },
          response: { status: 200, body: { contact: { id: 114 } } },
        },
      ],
      data: { id: '114' },
    },
    {
      action: 'add_tag',
      params: { contact: 113, tag: '20' },
      exchanges: [
        {
          request: { method: 'POST', path: '/api/3/contactTags', headers: H, body: { contactTag: { contact: '113', tag: '20' } } },
          response: { status: 201, body: { contactTag: { id: '9' } } },
        },
      ],
      data: { id: '9' },
    },
    {
      action: 'add_to_list',
      params: { contact: '113', list: 2 },
      exchanges: [
        {
          request: { method: 'POST', path: '/api/3/contactLists', headers: H, body: { contactList: { list: '2', contact: '113', status: 1 } } },
          response: { status: 201, body: { contactList: { id: 10 } } },
        },
      ],
      data: { id: '10' },
    },
    {
      action: 'add_note',
      params: { contact: '113', note: 'Called; interested' },
      exchanges: [
        {
          request: { method: 'POST', path: '/api/3/notes', headers: H, body: { note: { note: 'Called; interested', relid: '113', reltype: 'Subscriber' } } },
          response: { status: 201, body: { note: { id: '11' } } },
        },
      ],
      data: { id: '11' },
    },
  ],
};
