import { actionHarness } from '../helpers/integration-harness';
import { vendorSpec } from '../helpers/vendor-spec';

const sheets = actionHarness('google_sheets', ['append_row', 'get_rows'], { kind: 'oauth2', secrets: { access_token: 'ya29.test' } });
const spec = vendorSpec('google-sheets.json');

describe('google_sheets', () => {
  test('append_row appends one row after the table, inserting rows, with values parsed as typed', async () => {
    sheets.fake.on('POST', /\/values\/.*:append$/, {
      body: { spreadsheetId: 'sheet-1', tableRange: 'Leads!A1:D11', updates: { spreadsheetId: 'sheet-1', updatedRange: 'Leads!A12:D12', updatedRows: 1 } },
    });
    const result = await sheets.run('append_row', { spreadsheetId: 'sheet-1', range: 'Leads!A:D', values: ['Ada Caller', '+15550100', 42, true] });
    const req = sheets.sent();
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v4/spreadsheets/sheet-1/values/Leads!A%3AD:append');
    expect(req.query).toEqual({ valueInputOption: 'USER_ENTERED', insertDataOption: 'INSERT_ROWS' });
    expect(req.headers.authorization).toBe('Bearer ya29.test');
    expect(req.body).toEqual({ range: 'Leads!A:D', majorDimension: 'ROWS', values: [['Ada Caller', '+15550100', 42, true]] });
    expect(spec(req)).toEqual([]);
    expect(result.data).toEqual({ spreadsheetId: 'sheet-1', updatedRange: 'Leads!A12:D12', updatedRows: 1 });
  });

  test('get_rows reads a range row by row', async () => {
    sheets.fake.on('GET', /\/values\/[^:]+$/, { body: { range: 'Leads!A1:B2', majorDimension: 'ROWS', values: [['name', 'phone'], ['Ada', '+15550100']] } });
    const result = await sheets.run('get_rows', { spreadsheetId: 'sheet-1', range: 'Leads!A1:B2' });
    const req = sheets.sent();
    expect([req.method, req.path]).toEqual(['GET', '/v4/spreadsheets/sheet-1/values/Leads!A1%3AB2']);
    expect(req.query).toEqual({ majorDimension: 'ROWS', valueRenderOption: 'FORMATTED_VALUE' });
    expect(req.headers.authorization).toBe('Bearer ya29.test');
    expect(result.data).toEqual({ range: 'Leads!A1:B2', values: [['name', 'phone'], ['Ada', '+15550100']] });
  });

  test('an empty row is refused before anything is sent', async () => {
    const err = await sheets.fail('append_row', { spreadsheetId: 'sheet-1', values: [] });
    expect(err.type).toBe('invalid_params');
    expect(err.message).toContain('values');
    expect(sheets.fake.requests).toHaveLength(0);
  });
});
