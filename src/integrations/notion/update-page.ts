import { z } from 'zod';
import { defineAction, VendorError } from '../define';

const input = z
  .object({
    page_id: z.string().min(1).describe('Page (or database row) to update'),
    properties: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('Property values in Notion form, by property name ({"Status":{"select":{"name":"Called"}}}); custom fields go here'),
    in_trash: z.boolean().optional().describe('Move the page to the trash (true) or restore it (false)'),
  })
  .refine((v) => (v.properties && Object.keys(v.properties).length > 0) || v.in_trash !== undefined, {
    message: 'properties or in_trash is required',
    path: ['properties'],
  });

const output = z.object({ id: z.string().describe('Page id'), url: z.string().optional() });

/** Sets properties of a page, e.g. a lead row's status after the call (`PATCH /v1/pages/{page_id}`). */
export const updatePage = defineAction({
  key: 'update_page',
  title: 'Update a page or database row',
  input,
  output,
  idempotent: true,
  docs: 'https://developers.notion.com/reference/patch-page',
  async run({ page_id, ...body }, { http }) {
    const res = await http.request<{ id?: string; url?: string }>({ method: 'PATCH', path: `/v1/pages/${encodeURIComponent(page_id)}`, json: body });
    if (!res.body.id) throw new VendorError('vendor_error_in_body', 'Notion answered without a page', false, res.status);
    return { id: res.body.id, url: res.body.url };
  },
});
