import type { IntegrationCases } from '../../helpers/action-cases';

const H = { authorization: 'Bearer patTEST.secret' };
const FORMULA = 'AND({Phone}="+15550100",{Say "hi"}="a\\\\b\\"c")';
const record = (id: string) => ({ id, createdTime: 't', fields: { Phone: '+15550100' } });

/** Airtable: personal access token; reads follow `offset` pages. */
export const airtable: IntegrationCases = {
  integration: 'airtable',
  connection: { kind: 'api_key', secrets: { api_key: 'patTEST.secret' } },
  cases: [
    {
      action: 'find_records',
      params: { baseId: 'appBase123', table: 'Leads', where: { Phone: '+15550100', 'Say "hi"': 'a\\b"c' }, maxRecords: 3 },
      exchanges: [
        {
          request: { method: 'GET', path: '/v0/appBase123/Leads', query: { filterByFormula: FORMULA, pageSize: '100' }, headers: H },
          response: { body: { records: [record('rec1'), record('rec2')], offset: 'itr1/rec2' } },
        },
        {
          request: { method: 'GET', path: '/v0/appBase123/Leads', query: { filterByFormula: FORMULA, pageSize: '100', offset: 'itr1/rec2' }, headers: H },
          response: { body: { records: [record('rec3'), record('rec4')], offset: 'itr2/rec4' } },
        },
      ],
      data: { records: [record('rec1'), record('rec2'), record('rec3')], truncated: true },
    },
    {
      action: 'find_records',
      name: 'a formula and a view, one page',
      params: { baseId: 'appBase123', table: 'Leads', filterByFormula: "{Status}='New'", view: 'Grid view' },
      exchanges: [
        {
          request: {
            method: 'GET',
            path: '/v0/appBase123/Leads',
            query: { filterByFormula: "{Status}='New'", view: 'Grid view', pageSize: '100' },
            headers: H,
            rawBody: '',
          },
          response: { body: { records: [{ id: 'rec9', fields: {} }] } },
        },
      ],
      data: { records: [{ id: 'rec9', fields: {} }], truncated: false },
    },
    {
      action: 'create_record',
      params: { baseId: 'appBase123', table: 'Inbound Calls', fields: { Name: 'Ada', Phone: '+15550100' } },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/v0/appBase123/Inbound%20Calls',
            headers: { ...H, 'content-type': 'application/json' },
            body: { records: [{ fields: { Name: 'Ada', Phone: '+15550100' } }], typecast: true },
          },
          response: { body: { records: [{ id: 'rec1', createdTime: '2026-03-01T10:00:00.000Z', fields: { Name: 'Ada' } }] } },
        },
      ],
      data: { id: 'rec1', createdTime: '2026-03-01T10:00:00.000Z', fields: { Name: 'Ada' } },
    },
    {
      action: 'upsert_record',
      params: {
        baseId: 'appBase123',
        table: 'tblLeads',
        fields: { Phone: '+15550100', Budget: 'budget' },
        mergeOn: ['Phone'],
        typecast: false,
        customFields: [{ field: 'fields.Budget', customFieldEnabled: true }],
      },
      callData: { fields: { budget: '5k' } },
      exchanges: [
        {
          request: {
            method: 'PATCH',
            path: '/v0/appBase123/tblLeads',
            headers: H,
            body: { performUpsert: { fieldsToMergeOn: ['Phone'] }, records: [{ fields: { Phone: '+15550100', Budget: '5k' } }], typecast: false },
          },
          response: {
            body: { records: [{ id: 'rec2', createdTime: 'x', fields: { Phone: '+15550100', Budget: '5k' } }], createdRecords: [], updatedRecords: ['rec2'] },
          },
        },
      ],
      data: { id: 'rec2', createdTime: 'x', fields: { Phone: '+15550100', Budget: '5k' }, created: false },
    },
  ],
};
