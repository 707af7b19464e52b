import type { IntegrationCases } from '../../helpers/action-cases';

const H = { authorization: 'Bearer ntn_secret', 'notion-version': '2025-09-03' };
const PAGE = 'b55c9c91-384d-452b-81db-d1ef79372b75';
const text = (content: string) => [{ type: 'text', text: { content } }];

/** Notion: integration token, Notion-Version. */
export const notion: IntegrationCases = {
  integration: 'notion',
  connection: { kind: 'api_key', secrets: { api_key: 'ntn_secret' } },
  // INDEX.md: Notion's MCP description types children/icon/cover as strings, so it is checked leniently.
  spec: { file: 'notion.json', lenient: true },
  cases: [
    {
      action: 'create_page',
      params: {
        database_id: 'd9824bdc-8445-4327-be8b-5b47500af6ce',
        title: 'Ada Caller',
        properties: { Status: { select: { name: 'New' } } },
        content: 'Wants pricing.\n\nCall back Tuesday.',
      },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/v1/pages',
            headers: { ...H, 'content-type': 'application/json' },
            body: {
              parent: { database_id: 'd9824bdc-8445-4327-be8b-5b47500af6ce' },
              properties: { Status: { select: { name: 'New' } }, Name: { title: text('Ada Caller') } },
              children: [
                { object: 'block', type: 'paragraph', paragraph: { rich_text: text('Wants pricing.') } },
                { object: 'block', type: 'paragraph', paragraph: { rich_text: text('Call back Tuesday.') } },
              ],
            },
          },
          response: { body: { object: 'page', id: PAGE, url: 'https://www.notion.so/x' } },
        },
      ],
      data: { id: PAGE, url: 'https://www.notion.so/x' },
    },
    {
      action: 'create_page',
      name: 'under a page: the title keyed `title`, database properties ignored',
      params: { page_id: '59833787-2cf9-4fdf-8782-e53db20768a5', title: 'Call notes', properties: { Status: {} } },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/v1/pages',
            headers: H,
            body: { parent: { page_id: '59833787-2cf9-4fdf-8782-e53db20768a5' }, properties: { title: { title: text('Call notes') } } },
          },
          response: { body: { object: 'page', id: 'p-2' } },
        },
      ],
      data: { id: 'p-2' },
    },
    {
      action: 'update_page',
      params: { page_id: PAGE, properties: { Status: { select: { name: 'Called' } } } },
      exchanges: [
        {
          request: { method: 'PATCH', path: `/v1/pages/${PAGE}`, headers: H, body: { properties: { Status: { select: { name: 'Called' } } } } },
          response: { body: { object: 'page', id: PAGE, url: 'https://www.notion.so/x' } },
        },
      ],
      data: { id: PAGE, url: 'https://www.notion.so/x' },
      notDescribed: 'notion.json keeps POST /v1/pages only',
    },
    {
      action: 'add_comment',
      params: { page_id: PAGE, text: 'Caller asked for a quote.' },
      exchanges: [
        {
          request: { method: 'POST', path: '/v1/comments', headers: H, body: { parent: { page_id: PAGE }, rich_text: text('Caller asked for a quote.') } },
          response: { body: { object: 'comment', id: 'c-1', discussion_id: 'd-1' } },
        },
      ],
      data: { id: 'c-1', discussion_id: 'd-1' },
      notDescribed: 'notion.json keeps POST /v1/pages only',
    },
  ],
};
