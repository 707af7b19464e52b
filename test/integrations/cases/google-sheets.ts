import type { IntegrationCases } from '../../helpers/action-cases';

const H = { authorization: 'Bearer ya29.test' };

/** Google Sheets: OAuth bearer; ranges path-encoded. */
export const google_sheets: IntegrationCases = {
  integration: 'google_sheets',
  connection: { kind: 'oauth2', secrets: { access_token: 'ya29.test' } },
  spec: { file: 'google-sheets.json' },
  cases: [
    {
      action: 'append_row',
      params: { spreadsheetId: 'sheet-1', range: 'Leads!A:D', values: ['Ada Caller', '+15550100', 42, true] },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/v4/spreadsheets/sheet-1/values/Leads!A%3AD:append',
            query: { valueInputOption: 'USER_ENTERED', insertDataOption: 'INSERT_ROWS' },
            headers: { ...H, 'content-type': 'application/json' },
            body: { range: 'Leads!A:D', majorDimension: 'ROWS', values: [['Ada Caller', '+15550100', 42, true]] },
          },
          response: {
            body: {
              spreadsheetId: 'sheet-1',
              tableRange: 'Leads!A1:D11',
              updates: { spreadsheetId: 'sheet-1', updatedRange: 'Leads!A12:D12', updatedRows: 1 },
            },
          },
        },
      ],
      data: { spreadsheetId: 'sheet-1', updatedRange: 'Leads!A12:D12', updatedRows: 1 },
    },
    {
      action: 'get_rows',
      params: { spreadsheetId: 'sheet-1', range: 'Leads!A1:B2' },
      exchanges: [
        {
          request: {
            method: 'GET',
            path: '/v4/spreadsheets/sheet-1/values/Leads!A1%3AB2',
            query: { majorDimension: 'ROWS', valueRenderOption: 'FORMATTED_VALUE' },
            headers: H,
          },
          response: {
            body: {
              range: 'Leads!A1:B2',
              majorDimension: 'ROWS',
              values: [
                ['name', 'phone'],
                ['Ada', '+15550100'],
              ],
            },
          },
        },
      ],
      data: {
        range: 'Leads!A1:B2',
        values: [
          ['name', 'phone'],
          ['Ada', '+15550100'],
        ],
      },
      notDescribed: 'google-sheets.json keeps values.append only',
    },
  ],
};
