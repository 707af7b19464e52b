import { z } from 'zod';
import { defineAction, VendorError } from '../define';
import { AirtableRecord, recordOutput, tableParams, tablePath } from './fields';

const input = z.object(tableParams);

/** Adds a row to a table (`POST /v0/{baseId}/{table}`). */
export const createRecord = defineAction({
  key: 'create_record',
  title: 'Create a record',
  input,
  output: recordOutput,
  idempotent: false,
  docs: 'https://airtable.com/developers/web/api/create-records',
  async run(params, { http }) {
    const res = await http.request<{ records?: AirtableRecord[] }>({
      method: 'POST',
      path: tablePath(params.baseId, params.table),
      json: { records: [{ fields: params.fields }], typecast: params.typecast },
    });
    const rec = res.body.records?.[0];
    if (!rec) throw new VendorError('vendor_error_in_body', 'Airtable answered without a record', false, res.status);
    return { id: rec.id, createdTime: rec.createdTime, fields: rec.fields ?? {} };
  },
});
