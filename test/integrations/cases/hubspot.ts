import type { IntegrationCases } from '../../helpers/action-cases';

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
      params: { email: 'lead_email', customFields: [{ field: 'email', customFieldEnabled: true }, { field: 'firstname', customFieldEnabled: false }], firstname: 'Bob' },
      callData: { fields: { lead_email: 'bob@example.com' } },
      exchanges: [
        {
          request: { method: 'POST', path: '/crm/v3/objects/contacts', headers: { authorization: 'Bearer pat-na1-test' }, body: { properties: { email: 'bob@example.com', firstname: 'Bob' }, associations: [] } },
          response: { status: 201, body: { id: '502', properties: {} } },
        },
      ],
      data: { id: '502', existing: false, properties: {} },
    },
  ],
};
