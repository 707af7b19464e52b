import { actionHarness } from '../helpers/integration-harness';

const airtable = actionHarness('airtable', ['create_record', 'upsert_record'], { kind: 'api_key', secrets: { api_key: 'patTEST.secret' } });

describe('airtable', () => {
  test('create_record posts one record with typecast; table names are path-encoded', async () => {
    airtable.fake.on('POST', '/v0/appBase123/Inbound%20Calls', { body: { records: [{ id: 'rec1', createdTime: '2026-03-01T10:00:00.000Z', fields: { Name: 'Ada' } }] } });
    const result = await airtable.run('create_record', { baseId: 'appBase123', table: 'Inbound Calls', fields: { Name: 'Ada', Phone: '+15550100' } });
    const req = airtable.sent();
    expect([req.method, req.path]).toEqual(['POST', '/v0/appBase123/Inbound%20Calls']);
    expect(req.headers.authorization).toBe('Bearer patTEST.secret');
    expect(req.body).toEqual({ records: [{ fields: { Name: 'Ada', Phone: '+15550100' } }], typecast: true });
    expect(result.data).toEqual({ id: 'rec1', createdTime: '2026-03-01T10:00:00.000Z', fields: { Name: 'Ada' } });
  });

  test('upsert_record patches with performUpsert on the merge fields; a custom field value comes from callData', async () => {
    airtable.fake.on('PATCH', '/v0/appBase123/tblLeads', { body: { records: [{ id: 'rec2', createdTime: 'x', fields: { Phone: '+15550100', Budget: '5k' } }], createdRecords: [], updatedRecords: ['rec2'] } });
    const result = await airtable.run(
      'upsert_record',
      { baseId: 'appBase123', table: 'tblLeads', fields: { Phone: '+15550100', Budget: 'budget' }, mergeOn: ['Phone'], typecast: false, customFields: [{ field: 'fields.Budget', customFieldEnabled: true }] },
      { callData: { fields: { budget: '5k' } } },
    );
    const req = airtable.sent();
    expect([req.method, req.path]).toEqual(['PATCH', '/v0/appBase123/tblLeads']);
    expect(req.body).toEqual({ performUpsert: { fieldsToMergeOn: ['Phone'] }, records: [{ fields: { Phone: '+15550100', Budget: '5k' } }], typecast: false });
    expect(result.data).toEqual({ id: 'rec2', createdTime: 'x', fields: { Phone: '+15550100', Budget: '5k' }, created: false });
  });

  test('a custom field missing from callData fails naming the key, nothing sent', async () => {
    const err = await airtable.fail('upsert_record', { baseId: 'appBase123', table: 't', fields: { Phone: 'x', Budget: 'budget' }, mergeOn: ['Phone'], customFields: [{ field: 'fields.Budget', customFieldEnabled: true }] }, { callData: { fields: {} } });
    expect(err.type).toBe('custom_field_missing');
    expect(err.message).toContain('"budget"');
    expect(airtable.fake.requests).toHaveLength(0);
  });

  test('merge fields without values and a bad base id are each named, nothing sent', async () => {
    const err = await airtable.fail('upsert_record', { baseId: 'base1', table: 't', fields: { Name: 'x' }, mergeOn: ['Phone'] });
    expect(err.type).toBe('invalid_params');
    expect(err.message).toContain('baseId');
    expect(err.message).toContain('mergeOn: every mergeOn field needs a value in fields');
    expect(airtable.fake.requests).toHaveLength(0);
  });
});
