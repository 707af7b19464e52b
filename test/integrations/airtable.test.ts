import { caseParams } from '../helpers/action-cases';
import { actionHarness } from '../helpers/integration-harness';
import { airtable as cases } from './cases/airtable';

// The requests of every action are the cases in ./cases/airtable.ts; these are the refusals before sending.
const airtable = actionHarness(cases);

describe('airtable', () => {
  test('a custom field missing from callData fails naming the key, nothing sent', async () => {
    const err = await airtable.fail('upsert_record', caseParams(cases, 'upsert_record'), { callData: { fields: {} } });
    expect(err.type).toBe('custom_field_missing');
    expect(err.message).toContain('"budget"');
    expect(airtable.fake.requests).toHaveLength(0);
  });

  test('merge fields without values and a bad base id are each named, nothing sent', async () => {
    const err = await airtable.fail('upsert_record', { ...caseParams(cases, 'upsert_record'), baseId: 'base1', fields: { Name: 'x' }, customFields: [] });
    expect(err.type).toBe('invalid_params');
    expect(err.message).toContain('baseId');
    expect(err.message).toContain('mergeOn: every mergeOn field needs a value in fields');
    expect(airtable.fake.requests).toHaveLength(0);
  });
});
