import { z } from 'zod';
import { defineAction, VendorError } from '../define';
import { paragraphs, richText } from './rich-text';

const input = z
  .object({
    database_id: z.string().min(1).optional().describe('Database the page is a row of (its title property is titleProperty)'),
    data_source_id: z.string().min(1).optional().describe('Data source the page is a row of (databases with several sources)'),
    page_id: z.string().min(1).optional().describe('Parent page, for a sub-page'),
    title: z.string().min(1).describe('Page title'),
    titleProperty: z.string().min(1).default('Name').describe("Name of the database's title property"),
    properties: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('Other property values in Notion form, by property name ({"Status":{"select":{"name":"New"}}}); custom fields go here'),
    content: z.string().optional().describe('Body text; each line becomes a paragraph'),
  })
  .refine((v) => [v.database_id, v.data_source_id, v.page_id].filter((p) => p !== undefined).length === 1, {
    message: 'exactly one of database_id, data_source_id or page_id is required',
    path: ['database_id'],
  });

const output = z.object({ id: z.string().describe('Page id'), url: z.string().optional() });

/** Creates a page, usually a database row (`POST /v1/pages`). */
export const createPage = defineAction({
  key: 'create_page',
  title: 'Create a page or database row',
  input,
  output,
  idempotent: false,
  docs: 'https://developers.notion.com/reference/post-page',
  async run(params, { http }) {
    const parent = params.page_id
      ? { page_id: params.page_id }
      : params.data_source_id
        ? { type: 'data_source_id', data_source_id: params.data_source_id }
        : { database_id: params.database_id };
    // A sub-page's only property is its title, keyed `title`; database rows use the database's title property name.
    const titleKey = params.page_id ? 'title' : params.titleProperty;
    const properties = { ...(params.page_id ? {} : params.properties), [titleKey]: { title: richText(params.title) } };
    const children = params.content ? paragraphs(params.content) : [];
    const res = await http.request<{ id?: string; url?: string }>({
      method: 'POST',
      path: '/v1/pages',
      json: { parent, properties, ...(children.length > 0 ? { children } : {}) },
    });
    if (!res.body.id) throw new VendorError('vendor_error_in_body', 'Notion answered without a page', false, res.status);
    return { id: res.body.id, url: res.body.url };
  },
});
