import { actionHarness } from '../helpers/integration-harness';
import { vendorSpec } from '../helpers/vendor-spec';

const notion = actionHarness('notion', ['create_page', 'update_page', 'add_comment'], { kind: 'api_key', secrets: { api_key: 'ntn_secret' } });
// INDEX.md: Notion's MCP description types children/icon/cover as strings, so it is checked leniently.
const spec = vendorSpec('notion.json', { lenient: true });

describe('notion', () => {
  test('create_page adds a database row: title property, other properties, body paragraphs, Notion-Version', async () => {
    notion.fake.on('POST', '/v1/pages', { body: { object: 'page', id: 'b55c9c91-384d-452b-81db-d1ef79372b75', url: 'https://www.notion.so/x' } });
    const result = await notion.run('create_page', {
      database_id: 'd9824bdc-8445-4327-be8b-5b47500af6ce',
      title: 'Ada Caller',
      properties: { Status: { select: { name: 'New' } } },
      content: 'Wants pricing.\n\nCall back Tuesday.',
    });
    const req = notion.sent();
    expect([req.method, req.path]).toEqual(['POST', '/v1/pages']);
    expect(req.headers.authorization).toBe('Bearer ntn_secret');
    expect(req.headers['notion-version']).toBe('2025-09-03');
    expect(req.body).toEqual({
      parent: { database_id: 'd9824bdc-8445-4327-be8b-5b47500af6ce' },
      properties: { Status: { select: { name: 'New' } }, Name: { title: [{ type: 'text', text: { content: 'Ada Caller' } }] } },
      children: [
        { object: 'block', type: 'paragraph', paragraph: { rich_text: [{ type: 'text', text: { content: 'Wants pricing.' } }] } },
        { object: 'block', type: 'paragraph', paragraph: { rich_text: [{ type: 'text', text: { content: 'Call back Tuesday.' } }] } },
      ],
    });
    expect(spec(req)).toEqual([]);
    expect(result.data).toEqual({ id: 'b55c9c91-384d-452b-81db-d1ef79372b75', url: 'https://www.notion.so/x' });
  });

  test('create_page under a page keys the title `title` and ignores database properties', async () => {
    notion.fake.on('POST', '/v1/pages', { body: { object: 'page', id: 'p-2' } });
    await notion.run('create_page', { page_id: '59833787-2cf9-4fdf-8782-e53db20768a5', title: 'Call notes', properties: { Status: {} } });
    const req = notion.sent();
    expect(req.body).toEqual({ parent: { page_id: '59833787-2cf9-4fdf-8782-e53db20768a5' }, properties: { title: { title: [{ type: 'text', text: { content: 'Call notes' } }] } } });
    expect(spec(req)).toEqual([]);
  });

  test('429 with Retry-After is retried after the time Notion asked for', async () => {
    notion.fake.on('POST', '/v1/comments', { status: 429, headers: { 'retry-after': '2' }, body: { object: 'error', status: 429, code: 'rate_limited', message: 'slow down' } }, { body: { object: 'comment', id: 'c-1', discussion_id: 'd-1' } });
    const result = await notion.run('add_comment', { page_id: 'b55c9c91-384d-452b-81db-d1ef79372b75', text: 'Caller asked for a quote.' });
    expect(result.attempts).toBe(2);
    expect(notion.sleeps).toEqual([2000]);
    expect(notion.fake.requests).toHaveLength(2);
    const req = notion.fake.requests[1]!;
    expect([req.method, req.path]).toEqual(['POST', '/v1/comments']);
    expect(req.headers['notion-version']).toBe('2025-09-03');
    expect(req.body).toEqual({ parent: { page_id: 'b55c9c91-384d-452b-81db-d1ef79372b75' }, rich_text: [{ type: 'text', text: { content: 'Caller asked for a quote.' } }] });
    expect(result.data).toEqual({ id: 'c-1', discussion_id: 'd-1' });
  });

  test('a page with two parents is refused before anything is sent', async () => {
    const err = await notion.fail('create_page', { page_id: 'a', database_id: 'b', title: 'x' });
    expect(err.type).toBe('invalid_params');
    expect(err.message).toContain('exactly one of database_id, data_source_id or page_id');
    expect(notion.fake.requests).toHaveLength(0);
  });

  test('update_page PATCHes the properties of a row', async () => {
    notion.fake.on('PATCH', '/v1/pages/b55c9c91-384d-452b-81db-d1ef79372b75', { body: { object: 'page', id: 'b55c9c91-384d-452b-81db-d1ef79372b75', url: 'https://www.notion.so/x' } });
    const result = await notion.run('update_page', { page_id: 'b55c9c91-384d-452b-81db-d1ef79372b75', properties: { Status: { select: { name: 'Called' } } } });
    const req = notion.sent();
    expect([req.method, req.path]).toEqual(['PATCH', '/v1/pages/b55c9c91-384d-452b-81db-d1ef79372b75']);
    expect(req.headers['notion-version']).toBe('2025-09-03');
    expect(req.body).toEqual({ properties: { Status: { select: { name: 'Called' } } } });
    expect(result.data).toEqual({ id: 'b55c9c91-384d-452b-81db-d1ef79372b75', url: 'https://www.notion.so/x' });
  });
});
