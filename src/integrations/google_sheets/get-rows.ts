import { z } from 'zod';
import { defineAction } from '../define';

const input = z.object({
  spreadsheetId: z.string().min(1).describe('Spreadsheet id (from its URL)'),
  range: z.string().min(1).describe('A1 range to read (Sheet1!A1:F100)'),
  valueRenderOption: z.enum(['FORMATTED_VALUE', 'UNFORMATTED_VALUE', 'FORMULA']).default('FORMATTED_VALUE').describe('How cells are rendered'),
});

const output = z.object({
  range: z.string().optional(),
  values: z.array(z.array(z.unknown())).describe('Rows of cells; trailing empty rows and cells are omitted'),
});

/** Reads the rows of a range (`GET values/{range}`), e.g. to look a caller up in a sheet. */
export const getRows = defineAction({
  key: 'get_rows',
  title: 'Read rows',
  input,
  output,
  idempotent: true,
  docs: 'https://developers.google.com/workspace/sheets/api/reference/rest/v4/spreadsheets.values/get',
  async run(params, { http }) {
    const res = await http.request<{ range?: string; values?: unknown[][] }>({
      method: 'GET',
      path: `/v4/spreadsheets/${encodeURIComponent(params.spreadsheetId)}/values/${encodeURIComponent(params.range)}`,
      query: { majorDimension: 'ROWS', valueRenderOption: params.valueRenderOption },
    });
    return { range: res.body.range, values: res.body.values ?? [] };
  },
});
