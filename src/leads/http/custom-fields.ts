import { defineCustomField, listCustomFields } from '../db/leads';
import { defineRoute, workspaceOf } from '../../http/route';
import { CustomFieldList, DefineCustomFieldsBody } from './lead-schemas';

const TAG = 'Leads';

/** PUT /v1/lead/custom-fields: defines (or relabels) custom lead fields; returns every defined field. */
export const defineCustomFields = defineRoute({
  method: 'put',
  path: '/v1/lead/custom-fields',
  tag: TAG,
  summary: 'Define custom lead fields',
  description:
    "Adds the listed fields to the workspace's custom lead fields, or relabels them; fields not listed stay defined. " +
    'Lead fields beyond the standard ones are stored only when defined here.',
  auth: 'apiKey',
  body: DefineCustomFieldsBody,
  example: { body: { fields: [{ key: 'plan', label: 'Plan' }] } },
  responses: {
    200: { description: 'Every custom field the workspace defines', schema: CustomFieldList },
    400: { description: 'Invalid or reserved key' },
  },
  async handler(input) {
    const ws = workspaceOf(input);
    // One definition per key (the last wins), so one statement never touches a row twice.
    const byKey = new Map(input.body.fields.map((f) => [f.key, f.label]));
    const fields = await input.deps.db.tx(async (q) => {
      for (const [key, label] of byKey) await defineCustomField(q, ws, key, label);
      return listCustomFields(q, ws);
    });
    return { status: 'success', fields };
  },
});

/** GET /v1/lead/custom-fields: the workspace's custom lead fields. */
export const getCustomFields = defineRoute({
  method: 'get',
  path: '/v1/lead/custom-fields',
  tag: TAG,
  summary: 'List custom lead fields',
  auth: 'apiKey',
  responses: { 200: { description: 'Every custom field the workspace defines', schema: CustomFieldList } },
  async handler(input) {
    return { status: 'success', fields: await listCustomFields(input.deps.db, workspaceOf(input)) };
  },
});
