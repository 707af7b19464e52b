import type { IntegrationCases } from '../../helpers/action-cases';

const H = { authorization: 'Zoho-oauthtoken 1000.zoho-token' };
const created = (id: string) => ({ status: 201, body: { data: [{ code: 'SUCCESS', status: 'success', message: 'record added', details: { id } }] } });

/** Zoho CRM: OAuth token with Zoho's scheme, the account's data centre; records by API field name. */
export const zoho_crm: IntegrationCases = {
  integration: 'zoho_crm',
  connection: { kind: 'oauth2', secrets: { access_token: '1000.zoho-token', refresh_token: 'zoho-refresh' }, settings: { dc: 'eu' } },
  spec: { file: 'zoho-crm.json' },
  cases: [
    {
      action: 'create_lead',
      params: {
        Last_Name: 'Lovelace',
        First_Name: 'Ada',
        Company: 'Engines',
        Email: 'ada@example.com',
        fields: { Call_Summary: 'wants a demo', Lead_Score: 7 },
      },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/crm/v8/Leads',
            headers: { ...H, 'content-type': 'application/json' },
            body: {
              data: [{ Call_Summary: 'wants a demo', Lead_Score: 7, Last_Name: 'Lovelace', First_Name: 'Ada', Company: 'Engines', Email: 'ada@example.com' }],
              trigger: ['workflow'],
            },
          },
          response: created('4150868000000624001'),
        },
      ],
      data: { id: '4150868000000624001' },
    },
    {
      action: 'upsert_contact',
      params: { Last_Name: 'Hopper', Email: 'grace@example.com', duplicate_check_fields: ['Email', 'Phone'], trigger: [] },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/crm/v8/Contacts/upsert',
            headers: H,
            body: { data: [{ Last_Name: 'Hopper', Email: 'grace@example.com' }], duplicate_check_fields: ['Email', 'Phone'], trigger: [] },
          },
          response: {
            status: 200,
            body: { data: [{ code: 'SUCCESS', status: 'success', action: 'update', duplicate_field: 'Email', details: { id: '77' } }] },
          },
        },
      ],
      data: { id: '77', action: 'update' },
      notDescribed: 'zoho-crm.json keeps POST /crm/v8/{module_api_name} only (upsert is a sub-path)',
    },
    {
      action: 'add_note',
      params: { parent_module: 'Leads', parent_id: '4150868000000624001', Note_Title: 'Call', Note_Content: 'Asked for pricing' },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/crm/v8/Notes',
            headers: H,
            body: {
              data: [{ Note_Title: 'Call', Note_Content: 'Asked for pricing', Parent_Id: { module: { api_name: 'Leads' }, id: '4150868000000624001' } }],
            },
          },
          response: created('900'),
        },
      ],
      data: { id: '900' },
    },
    {
      action: 'update_record',
      params: { module: 'Leads', id: '4150868000000624001', fields: { Lead_Status: 'Contacted', Call_Summary: 'booked a demo' } },
      exchanges: [
        {
          request: {
            method: 'PUT',
            path: '/crm/v8/Leads/4150868000000624001',
            headers: { ...H, 'content-type': 'application/json' },
            body: { data: [{ Lead_Status: 'Contacted', Call_Summary: 'booked a demo' }], trigger: ['workflow'] },
          },
          response: {
            status: 200,
            body: { data: [{ code: 'SUCCESS', status: 'success', message: 'record updated', details: { id: '4150868000000624001' } }] },
          },
        },
      ],
      data: { id: '4150868000000624001' },
      notDescribed: 'zoho-crm.json keeps POST /crm/v8/{module_api_name} only',
    },
    {
      action: 'find_records',
      params: { module: 'Contacts', email: 'ada@example.com' },
      exchanges: [
        {
          request: {
            method: 'GET',
            path: '/crm/v8/Contacts/search',
            query: { email: 'ada@example.com', fields: 'Full_Name,Email,Phone', per_page: '10' },
            headers: H,
          },
          response: {
            status: 200,
            body: {
              data: [{ id: '4150868000000624002', Full_Name: 'Ada Lovelace', Email: 'ada@example.com', Phone: null }],
              info: { per_page: 10, count: 1, page: 1, more_records: false },
            },
          },
        },
      ],
      data: { records: [{ id: '4150868000000624002', Full_Name: 'Ada Lovelace', Email: 'ada@example.com', Phone: null }], more: false },
      notDescribed: 'zoho-crm.json keeps POST /crm/v8/{module_api_name} only',
    },
  ],
};
