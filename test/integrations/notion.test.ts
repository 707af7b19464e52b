import { caseParams } from '../helpers/action-cases';
import { actionHarness } from '../helpers/integration-harness';
import { notion as cases } from './cases/notion';

// The requests of every action are the cases in ./cases/notion.ts; these are the retry and a refusal.
const notion = actionHarness(cases);

describe('notion', () => {
  test('429 with Retry-After is retried after the time Notion asked for', async () => {
    notion.fake.on(
      'POST',
      '/v1/comments',
      { status: 429, headers: { 'retry-after': '2' }, body: { object: 'error', status: 429, code: 'rate_limited', message: 'slow down' } },
      { body: { object: 'comment', id: 'c-1', discussion_id: 'd-1' } },
    );
    const result = await notion.run('add_comment', caseParams(cases, 'add_comment'));
    expect(result.attempts).toBe(2);
    expect(notion.sleeps).toEqual([2000]);
    expect(notion.fake.requests).toHaveLength(2);
    const req = notion.fake.requests[1]!;
    expect([req.method, req.path]).toEqual(['POST', '/v1/comments']);
    expect(req.headers['notion-version']).toBe('2025-09-03');
    expect(req.body).toEqual({
      parent: { page_id: 'b55c9c91-384d-452b-81db-d1ef79372b75' },
      rich_text: [{ type: 'text', text: { content: 'Caller asked for a quote.' } }],
    });
    expect(result.data).toEqual({ id: 'c-1', discussion_id: 'd-1' });
  });

  test('a page with two parents is refused before anything is sent', async () => {
    const err = await notion.fail('create_page', { ...caseParams(cases, 'create_page'), page_id: 'a' });
    expect(err.type).toBe('invalid_params');
    expect(err.message).toContain('exactly one of database_id, data_source_id or page_id');
    expect(notion.fake.requests).toHaveLength(0);
  });
});
