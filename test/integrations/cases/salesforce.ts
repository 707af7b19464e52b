import type { IntegrationCases } from '../../helpers/action-cases';

const H = { authorization: 'Bearer 00Dxx!AQ4AQ' };

/** Salesforce: the org's own host comes from the connection's instance_url (no override); OAuth bearer. */
export const salesforce: IntegrationCases = {
  integration: 'salesforce',
  connection: { kind: 'oauth2', secrets: { access_token: '00Dxx!AQ4AQ', refresh_token: 'sf-refresh' }, settings: { instance_url: '{fake}/' } },
  base: null,
  cases: [
    {
      action: 'create_lead',
      params: { LastName: 'Lovelace', Company: 'Engines', Email: 'ada@example.com', fields: { Call_Summary__c: 'wants a demo', Rating: 'Hot' } },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/services/data/v62.0/sobjects/Lead',
            headers: { ...H, 'content-type': 'application/json' },
            body: { Call_Summary__c: 'wants a demo', Rating: 'Hot', LastName: 'Lovelace', Company: 'Engines', Email: 'ada@example.com' },
          },
          response: { status: 201, body: { id: '00Q5e00000AbCdEFGH', success: true, errors: [] } },
        },
      ],
      data: { id: '00Q5e00000AbCdEFGH' },
    },
    {
      action: 'create_lead',
      name: 'a custom field from callData',
      params: { LastName: 'caller_last', Company: 'Engines', customFields: [{ field: 'LastName', customFieldEnabled: true }] },
      callData: { fields: { caller_last: 'Lovelace' } },
      exchanges: [
        {
          request: { method: 'POST', path: '/services/data/v62.0/sobjects/Lead', headers: H, body: { LastName: 'Lovelace', Company: 'Engines' } },
          response: { status: 201, body: { id: '00Q5e00000AbCdEFGI', success: true, errors: [] } },
        },
      ],
      data: { id: '00Q5e00000AbCdEFGI' },
    },
    {
      action: 'upsert_record',
      params: { object: 'Contact', external_id_field: 'Phone_Key__c', external_id: '+15551234567', fields: { LastName: 'Hopper' } },
      exchanges: [
        {
          request: { method: 'PATCH', path: '/services/data/v62.0/sobjects/Contact/Phone_Key__c/%2B15551234567', headers: H, body: { LastName: 'Hopper' } },
          response: { status: 201, body: { id: '0035e00000XyZ', success: true, created: true } },
        },
      ],
      data: { id: '0035e00000XyZ', created: true },
    },
    {
      action: 'log_call',
      params: { Subject: 'AI call', WhoId: '00Q5e00000AbCdEFGH', CallDurationInSeconds: 95, CallType: 'Outbound', Description: 'Booked' },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/services/data/v62.0/sobjects/Task',
            headers: H,
            body: {
              Subject: 'AI call',
              WhoId: '00Q5e00000AbCdEFGH',
              CallDurationInSeconds: 95,
              CallType: 'Outbound',
              Description: 'Booked',
              Status: 'Completed',
              TaskSubtype: 'Call',
            },
          },
          response: { status: 201, body: { id: '00T5e00000Qq1', success: true, errors: [] } },
        },
      ],
      data: { id: '00T5e00000Qq1' },
    },
    {
      action: 'upsert_lead',
      params: { Email: "o'brien@example.com", LastName: "O'Brien", Company: 'Engines', Status: 'Working' },
      exchanges: [
        {
          request: {
            method: 'GET',
            path: '/services/data/v62.0/query',
            query: { q: "SELECT Id FROM Lead WHERE Email = 'o\\'brien@example.com' AND IsConverted = false ORDER BY CreatedDate DESC LIMIT 1" },
            headers: H,
          },
          response: { status: 200, body: { totalSize: 1, done: true, records: [{ attributes: { type: 'Lead' }, Id: '00Q5e00000AbCdEFGH' }] } },
        },
        {
          request: {
            method: 'PATCH',
            path: '/services/data/v62.0/sobjects/Lead/00Q5e00000AbCdEFGH',
            headers: { ...H, 'content-type': 'application/json' },
            body: { Email: "o'brien@example.com", LastName: "O'Brien", Company: 'Engines', Status: 'Working' },
          },
          response: { status: 204 },
        },
      ],
      data: { id: '00Q5e00000AbCdEFGH', created: false },
    },
    {
      action: 'upsert_lead',
      name: 'no lead has the email: created',
      params: { Email: 'ada@example.com', LastName: 'Lovelace', Company: 'Engines', fields: { Rating: 'Hot' } },
      exchanges: [
        {
          request: {
            method: 'GET',
            path: '/services/data/v62.0/query',
            query: { q: "SELECT Id FROM Lead WHERE Email = 'ada@example.com' AND IsConverted = false ORDER BY CreatedDate DESC LIMIT 1" },
            headers: H,
          },
          response: { status: 200, body: { totalSize: 0, done: true, records: [] } },
        },
        {
          request: {
            method: 'POST',
            path: '/services/data/v62.0/sobjects/Lead',
            headers: H,
            body: { Rating: 'Hot', Email: 'ada@example.com', LastName: 'Lovelace', Company: 'Engines' },
          },
          response: { status: 201, body: { id: '00Q5e00000ZzZzZZZZ', success: true, errors: [] } },
        },
      ],
      data: { id: '00Q5e00000ZzZzZZZZ', created: true },
    },
    {
      action: 'update_record',
      params: { object: 'Opportunity', id: '0065e00000AbCdEFGH', fields: { StageName: 'Meeting Booked', Next_Call__c: '2026-12-02' } },
      exchanges: [
        {
          request: {
            method: 'PATCH',
            path: '/services/data/v62.0/sobjects/Opportunity/0065e00000AbCdEFGH',
            headers: { ...H, 'content-type': 'application/json' },
            body: { StageName: 'Meeting Booked', Next_Call__c: '2026-12-02' },
          },
          response: { status: 204 },
        },
      ],
      data: { id: '0065e00000AbCdEFGH' },
    },
  ],
};
