import type { IntegrationCases } from '../../helpers/action-cases';

const H = { authorization: 'Bearer pat-na1-test', 'content-type': 'application/json' };
const NOT_DESCRIBED = 'hubspot.json keeps POST /crm/v3/objects/contacts only';

/** HubSpot: private app token as bearer; properties by internal name. */
export const hubspot: IntegrationCases = {
  integration: 'hubspot',
  connection: { kind: 'api_key', secrets: { api_key: 'pat-na1-test' } },
  spec: { file: 'hubspot.json' },
  cases: [
    {
      action: 'create_contact',
      params: { email: 'ada@example.com', firstname: 'Ada', properties: { hs_lead_status: 'NEW' } },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/crm/v3/objects/contacts',
            headers: { authorization: 'Bearer pat-na1-test', 'content-type': 'application/json' },
            body: { properties: { hs_lead_status: 'NEW', email: 'ada@example.com', firstname: 'Ada' }, associations: [] },
          },
          response: { status: 201, body: { id: '501', properties: { email: 'ada@example.com' }, createdAt: '2026-01-01T00:00:00Z' } },
        },
      ],
      data: { id: '501', existing: false, properties: { email: 'ada@example.com' } },
    },
    {
      action: 'create_contact',
      name: 'custom fields from callData',
      params: {
        email: 'lead_email',
        customFields: [
          { field: 'email', customFieldEnabled: true },
          { field: 'firstname', customFieldEnabled: false },
        ],
        firstname: 'Bob',
      },
      callData: { fields: { lead_email: 'bob@example.com' } },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/crm/v3/objects/contacts',
            headers: { authorization: 'Bearer pat-na1-test' },
            body: { properties: { email: 'bob@example.com', firstname: 'Bob' }, associations: [] },
          },
          response: { status: 201, body: { id: '502', properties: {} } },
        },
      ],
      data: { id: '502', existing: false, properties: {} },
    },
    {
      action: 'create_contact',
      name: 'a taken email updates the existing contact',
      params: { email: 'ada@example.com', firstname: 'Ada', phone: '+14155550100' },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/crm/v3/objects/contacts',
            headers: H,
            body: { properties: { email: 'ada@example.com', firstname: 'Ada', phone: '+14155550100' }, associations: [] },
          },
          response: { status: 409, body: { status: 'error', message: 'Contact already exists. Existing ID: 777', category: 'CONFLICT' } },
        },
        {
          request: {
            method: 'PATCH',
            path: '/crm/v3/objects/contacts/777',
            headers: H,
            body: { properties: { email: 'ada@example.com', firstname: 'Ada', phone: '+14155550100' } },
          },
          response: {
            status: 200,
            body: { id: '777', properties: { email: 'ada@example.com', firstname: 'Ada', phone: '+14155550100', lastname: 'Lovelace' } },
          },
        },
      ],
      data: { id: '777', existing: true, properties: { email: 'ada@example.com', firstname: 'Ada', phone: '+14155550100', lastname: 'Lovelace' } },
      notDescribed: NOT_DESCRIBED,
    },
    {
      action: 'upsert_contact',
      params: { email: 'ada@example.com', properties: { firstname: 'Ada', hs_lead_status: 'OPEN' } },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/crm/v3/objects/contacts/batch/upsert',
            headers: H,
            body: {
              inputs: [{ idProperty: 'email', id: 'ada@example.com', properties: { firstname: 'Ada', hs_lead_status: 'OPEN', email: 'ada@example.com' } }],
            },
          },
          response: {
            status: 200,
            body: {
              status: 'COMPLETE',
              results: [{ id: '501', new: false, properties: { email: 'ada@example.com', firstname: 'Ada' } }],
              startedAt: '2026-01-01T00:00:00Z',
              completedAt: '2026-01-01T00:00:01Z',
            },
          },
        },
      ],
      data: { id: '501', created: false, properties: { email: 'ada@example.com', firstname: 'Ada' } },
      notDescribed: NOT_DESCRIBED,
    },
    {
      action: 'update_contact',
      params: { email: 'ada@example.com', properties: { lifecyclestage: 'opportunity' } },
      exchanges: [
        {
          request: {
            method: 'PATCH',
            path: '/crm/v3/objects/contacts/ada%40example.com',
            query: { idProperty: 'email' },
            headers: H,
            body: { properties: { lifecyclestage: 'opportunity' } },
          },
          response: { status: 200, body: { id: '501', properties: { lifecyclestage: 'opportunity' } } },
        },
      ],
      data: { id: '501', properties: { lifecyclestage: 'opportunity' } },
      notDescribed: NOT_DESCRIBED,
    },
    {
      action: 'update_contact',
      name: 'by id',
      params: { id: '501', properties: { phone: '+14155550100' } },
      exchanges: [
        {
          request: { method: 'PATCH', path: '/crm/v3/objects/contacts/501', headers: H, body: { properties: { phone: '+14155550100' } } },
          response: { status: 200, body: { id: '501', properties: { phone: '+14155550100' } } },
        },
      ],
      data: { id: '501', properties: { phone: '+14155550100' } },
      notDescribed: NOT_DESCRIBED,
    },
    {
      action: 'search_contacts',
      params: { email: 'ada@example.com', limit: 5 },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/crm/v3/objects/contacts/search',
            headers: H,
            body: {
              filterGroups: [{ filters: [{ propertyName: 'email', operator: 'EQ', value: 'ada@example.com' }] }],
              properties: ['email', 'firstname', 'lastname', 'phone'],
              limit: 5,
            },
          },
          response: { status: 200, body: { total: 1, results: [{ id: '501', properties: { email: 'ada@example.com', firstname: 'Ada' } }] } },
        },
      ],
      data: { total: 1, contacts: [{ id: '501', properties: { email: 'ada@example.com', firstname: 'Ada' } }] },
      notDescribed: NOT_DESCRIBED,
    },
    {
      action: 'add_note',
      params: {
        body: 'Caller wants a demo on Tuesday',
        attach_to: [
          { type: 'contacts', id: '501' },
          { type: 'deals', id: '900' },
        ],
        timestamp: '2026-12-01T10:00:00+01:00',
      },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/crm/v3/objects/notes',
            headers: H,
            body: {
              properties: { hs_note_body: 'Caller wants a demo on Tuesday', hs_timestamp: '2026-12-01T09:00:00.000Z' },
              associations: [
                { to: { id: '501' }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 202 }] },
                { to: { id: '900' }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 214 }] },
              ],
            },
          },
          response: { status: 201, body: { id: '3001', properties: { hs_note_body: 'Caller wants a demo on Tuesday' } } },
        },
      ],
      data: { id: '3001' },
      notDescribed: NOT_DESCRIBED,
    },
    {
      action: 'create_deal',
      params: { dealname: 'Ada - demo', dealstage: 'appointmentscheduled', amount: 1200, contact_id: '501' },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/crm/v3/objects/deals',
            headers: H,
            body: {
              properties: { dealname: 'Ada - demo', pipeline: 'default', dealstage: 'appointmentscheduled', amount: '1200' },
              associations: [{ to: { id: '501' }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 3 }] }],
            },
          },
          response: { status: 201, body: { id: '900', properties: { dealname: 'Ada - demo', dealstage: 'appointmentscheduled' } } },
        },
      ],
      data: { id: '900', properties: { dealname: 'Ada - demo', dealstage: 'appointmentscheduled' } },
      notDescribed: NOT_DESCRIBED,
    },
    {
      action: 'associate',
      params: { from_type: 'contacts', from_id: '501', to_type: 'companies', to_id: '42' },
      exchanges: [
        {
          request: { method: 'PUT', path: '/crm/v4/objects/contacts/501/associations/default/companies/42', headers: { authorization: 'Bearer pat-na1-test' } },
          response: {
            status: 200,
            body: {
              status: 'COMPLETE',
              results: [{ from: { id: '501' }, to: { id: '42' }, associationSpec: { associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 279 } }],
            },
          },
        },
      ],
      data: { associated: true },
      notDescribed: NOT_DESCRIBED,
    },
  ],
};
