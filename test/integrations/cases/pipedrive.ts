import type { IntegrationCases } from '../../helpers/action-cases';

const TOKEN = '659c9fddb16335e48cc67114694b52074e812e03';
const FIELD = 'dcf558aac1ae4e8c4f849ba5e668430d8df9be12';
const H = { 'x-api-token': TOKEN, authorization: null };

/** Pipedrive: the API token in x-api-token on the company's domain; custom fields by their hash keys. */
export const pipedrive: IntegrationCases = {
  integration: 'pipedrive',
  connection: { kind: 'api_key', secrets: { api_key: TOKEN }, settings: { company_domain: 'acme' } },
  cases: [
    {
      action: 'create_person',
      params: { name: 'Ada Lovelace', emails: ['ada@example.com'], phones: ['+15551234567', '+15557654321'], org_id: 7, custom_fields: { [FIELD]: 'booked' } },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/api/v2/persons',
            headers: { ...H, 'content-type': 'application/json' },
            body: {
              name: 'Ada Lovelace',
              emails: [{ value: 'ada@example.com', primary: true, label: 'work' }],
              phones: [
                { value: '+15551234567', primary: true, label: 'work' },
                { value: '+15557654321', primary: false, label: 'work' },
              ],
              org_id: 7,
              custom_fields: { [FIELD]: 'booked' },
            },
          },
          response: { status: 200, body: { success: true, data: { id: 42, name: 'Ada Lovelace' } } },
        },
      ],
      data: { id: 42 },
    },
    {
      action: 'create_lead',
      params: { title: 'Inbound call', person_id: 42, value: { amount: 500, currency: 'USD' } },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/api/v1/leads',
            headers: H,
            body: { title: 'Inbound call', person_id: 42, value: { amount: 500, currency: 'USD' } },
          },
          response: { status: 201, body: { success: true, data: { id: 'adf21080-0e10-11eb-879b-05d71fb426ec' } } },
        },
      ],
      data: { id: 'adf21080-0e10-11eb-879b-05d71fb426ec' },
    },
    {
      action: 'add_note',
      params: { content: 'Called; wants a quote', person_id: 42, pinned_to_person_flag: true },
      exchanges: [
        {
          request: { method: 'POST', path: '/api/v1/notes', headers: H, body: { content: 'Called; wants a quote', person_id: 42, pinned_to_person_flag: 1 } },
          response: { status: 201, body: { success: true, data: { id: 9 } } },
        },
      ],
      data: { id: 9 },
    },
    {
      action: 'update_person',
      params: { id: 12, phones: ['+15551234567'], custom_fields: { [FIELD]: 'called back' } },
      exchanges: [
        {
          request: {
            method: 'PATCH',
            path: '/api/v2/persons/12',
            headers: { ...H, 'content-type': 'application/json' },
            body: { custom_fields: { [FIELD]: 'called back' }, phones: [{ value: '+15551234567', primary: true, label: 'work' }] },
          },
          response: { status: 200, body: { success: true, data: { id: 12, name: 'Ada Lovelace' } } },
        },
      ],
      data: { id: 12, name: 'Ada Lovelace' },
    },
    {
      action: 'find_person',
      params: { term: 'ada@example.com', fields: ['email'], exact_match: true },
      exchanges: [
        {
          request: {
            method: 'GET',
            path: '/api/v2/persons/search',
            query: { term: 'ada@example.com', fields: 'email', exact_match: 'true', limit: '10' },
            headers: H,
          },
          response: {
            status: 200,
            body: {
              success: true,
              data: {
                items: [{ result_score: 1, item: { id: 12, type: 'person', name: 'Ada Lovelace', emails: ['ada@example.com'], phones: ['+15551234567'] } }],
              },
            },
          },
        },
      ],
      data: { persons: [{ id: 12, name: 'Ada Lovelace', emails: ['ada@example.com'], phones: ['+15551234567'] }] },
    },
    {
      action: 'update_deal',
      params: { id: 77, stage_id: 3, value: 1200, currency: 'EUR' },
      exchanges: [
        {
          request: {
            method: 'PATCH',
            path: '/api/v2/deals/77',
            headers: { ...H, 'content-type': 'application/json' },
            body: { stage_id: 3, value: 1200, currency: 'EUR' },
          },
          response: { status: 200, body: { success: true, data: { id: 77, stage_id: 3, status: 'open' } } },
        },
      ],
      data: { id: 77, stage_id: 3, status: 'open' },
    },
  ],
};
