import { caseParams } from '../helpers/action-cases';
import { actionHarness } from '../helpers/integration-harness';
import { trello as cases } from './cases/trello';

// The requests of every action are the cases in ./cases/trello.ts; these are Trello's refusals.
const trello = actionHarness(cases);

describe('trello', () => {
  test('404 (Trello answers in plain text) is a not-found failure with Trello’s words, not retried', async () => {
    trello.fake.on('POST', '/1/cards/gone/actions/comments', { status: 404, body: 'The requested resource was not found.' });
    const err = await trello.fail('add_comment', { ...caseParams(cases, 'add_comment'), card: 'gone' });
    expect(err.type).toBe('vendor_not_found');
    expect(err.message).toContain('The requested resource was not found.');
    expect(trello.fake.requests).toHaveLength(1);
  });

  test('a list id that is not a Trello id is refused before anything is sent', async () => {
    const err = await trello.fail('create_card', { ...caseParams(cases, 'create_card'), idList: 'inbox' });
    expect(err.type).toBe('invalid_params');
    expect(err.message).toContain('idList: a Trello id is 24 hex characters');
    expect(trello.fake.requests).toHaveLength(0);
  });
});
