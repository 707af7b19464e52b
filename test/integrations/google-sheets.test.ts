import { caseParams } from '../helpers/action-cases';
import { actionHarness } from '../helpers/integration-harness';
import { vendorSpec } from '../helpers/vendor-spec';
import { google_sheets as cases } from './cases/google-sheets';

// The requests of every action are the cases in ./cases/google-sheets.ts; these are the refusals and the check's liveness.
const sheets = actionHarness(cases);

describe('google_sheets', () => {
  test('an empty row is refused before anything is sent', async () => {
    const err = await sheets.fail('append_row', { ...caseParams(cases, 'append_row'), values: [] });
    expect(err.type).toBe('invalid_params');
    expect(err.message).toContain('values');
    expect(sheets.fake.requests).toHaveLength(0);
  });

  test('the description check can fail: a row sent as a flat list is reported', () => {
    const body = { range: 'Leads!A:D', values: ['Ada'] };
    const problems = vendorSpec('google-sheets.json')({
      method: 'POST',
      path: '/v4/spreadsheets/sheet-1/values/Leads!A%3AD:append',
      query: { valueInputOption: 'USER_ENTERED' },
      headers: { 'content-type': 'application/json' },
      rawBody: JSON.stringify(body),
      body,
    });
    expect(problems.length).toBeGreaterThan(0);
  });
});
