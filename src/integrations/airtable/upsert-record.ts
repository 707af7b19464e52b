import { z } from 'zod';
import { defineAction, VendorError } from '../define';
import { AirtableRecord, recordOutput, tableParams, tablePath } from './fields';

const input = z
  .object({
    ...tableParams,
    mergeOn: z.array(z.string().min(1)).min(1).max(3).describe('Fields (1–3) that identify an existing record, e.g. ["Phone"]'),
  })
  .refine((v) => v.mergeOn.every((f) => f in v.fields), { message: 'every mergeOn field needs a value in fields', path: ['mergeOn'] });

const output = recordOutput.extend({ created: z.boolean().describe('True when no record matched and one was created') });

/** Updates the record matching `mergeOn`, or creates it (`PATCH /v0/{baseId}/{table}` with performUpsert). */
export const upsertRecord = defineAction({
  key: 'upsert_record',
  title: 'Create or update a record',
  input,
  output,
  idempotent: true,
  docs: 'https://airtable.com/developers/web/api/update-multiple-records',
  async run(params, { http }) {
    const res = await http.request<{ records?: AirtableRecord[]; createdRecords?: string[] }>({
      method: 'PATCH',
      path: tablePath(params.baseId, params.table),
      json: { performUpsert: { fieldsToMergeOn: params.mergeOn }, records: [{ fields: params.fields }], typecast: params.typecast },
    });
    const rec = res.body.records?.[0];
    if (!rec) throw new VendorError('vendor_error_in_body', 'Airtable answered without a record', false, res.status);
    return { id: rec.id, createdTime: rec.createdTime, fields: rec.fields ?? {}, created: (res.body.createdRecords ?? []).includes(rec.id) };
  },
});
