import { z } from 'zod';
import { defineAction } from '../define';

const cell = z.union([z.string(), z.number(), z.boolean(), z.null()]);

const input = z.object({
  spreadsheetId: z.string().min(1).describe('Spreadsheet id (from its URL)'),
  range: z.string().min(1).default('Sheet1').describe('A1 range or sheet name whose table the row is appended to (Sheet1!A:F)'),
  values: z.array(cell).min(1).describe('Cell values of the new row, left to right'),
  valueInputOption: z.enum(['USER_ENTERED', 'RAW']).default('USER_ENTERED').describe('USER_ENTERED parses numbers, dates and formulas as typed'),
});

const output = z.object({
  spreadsheetId: z.string(),
  updatedRange: z.string().optional().describe('Where the row landed (Sheet1!A12:F12)'),
  updatedRows: z.number().optional(),
});

/** Appends one row after the sheet's table, inserting rather than overwriting (`values:append`, INSERT_ROWS). */
export const appendRow = defineAction({
  key: 'append_row',
  title: 'Append a row',
  input,
  output,
  idempotent: false,
  docs: 'https://developers.google.com/workspace/sheets/api/reference/rest/v4/spreadsheets.values/append',
  async run(params, { http }) {
    const res = await http.request<{ spreadsheetId?: string; updates?: { updatedRange?: string; updatedRows?: number } }>({
      method: 'POST',
      path: `/v4/spreadsheets/${encodeURIComponent(params.spreadsheetId)}/values/${encodeURIComponent(params.range)}:append`,
      query: { valueInputOption: params.valueInputOption, insertDataOption: 'INSERT_ROWS' },
      json: { range: params.range, majorDimension: 'ROWS', values: [params.values] },
    });
    return {
      spreadsheetId: res.body.spreadsheetId ?? params.spreadsheetId,
      updatedRange: res.body.updates?.updatedRange,
      updatedRows: res.body.updates?.updatedRows,
    };
  },
});
