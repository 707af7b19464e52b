import { actionHarness } from '../helpers/integration-harness';

const airtable = actionHarness('airtable', ['find_records', 'create_record', 'upsert_record'], { kind: 'api_key', secrets: { api_key: 'patTEST.secret' } });

describe('airtable', () => {
  test('find_records filters by field values and follows offset pages up to maxRecords', async () => {
    const page = (ids: string[], offset?: string) => ({ body: { records: ids.map((id) => ({ id, createdTime: 't', fields: { Phone: '+15550100' } })), ...(offset ? { offset } : {}) } });
    airtable.fake.on('GET', '/v0/appBase123/Leads', page(['rec1', 'rec2'], 'itr1/rec2'), page(['rec3', 'rec4'], 'itr2/rec4'));
    const result = await airtable.run('find_records', { baseId: 'appBase123', table: 'Leads', where: { Phone: '+15550100', 'Say "hi"': 'a\\b"c' }, maxRecords: 3 });
    expect(airtable.fake.requests.map((r) => [r.method, r.path])).toEqual([
      ['GET', '/v0/appBase123/Leads'],
      ['GET', '/v0/appBase123/Leads'],
    ]);
    const formula = 'AND({Phone}="+15550100",{Say "hi"}="a\\\\b\\"c")';
    expect(airtable.fake.requests[0]!.query).toEqual({ filterByFormula: formula, pageSize: '100' });
    expect(airtable.fake.requests[1]!.query).toEqual({ filterByFormula: formula, pageSize: '100', offset: 'itr1/rec2' });
    expect(airtable.fake.requests[0]!.headers.authorization).toBe('Bearer patTEST.secret');
    const data = result.data as { records: Array<{ id: string }>; truncated: boolean };
    expect(data.records.map((r) => r.id)).toEqual(['rec1', 'rec2', 'rec3']);
    expect(data.truncated).toBe(true);
  });

  test('find_records stops at the last page', async () => {
    airtable.fake.on('GET', '/v0/appBase123/Leads', { body: { records: [{ id: 'rec9', fields: {} }] } });
    const result = await airtable.run('find_records', { baseId: 'appBase123', table: 'Leads', filterByFormula: "{Status}='New'", view: 'Grid view' });
    expect(airtable.sent().query).toEqual({ filterByFormula: "{Status}='New'", view: 'Grid view', pageSize: '100' });
    expect(result.data).toEqual({ records: [{ id: 'rec9', fields: {} }], truncated: false });
  });

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
