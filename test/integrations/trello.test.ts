import { actionHarness } from '../helpers/integration-harness';

const trello = actionHarness('trello', ['create_card', 'add_comment'], { kind: 'api_key', secrets: { api_key: 'trello-key', token: 'trello-token' } });
const LIST = '5abbe4b7ddc1b351ef961414';

describe('trello', () => {
  test('create_card sends the card as query parameters, key and token in the Authorization header', async () => {
    trello.fake.on('POST', '/cards', { body: { id: '65f0c0ffee0000000000abcd', shortUrl: 'https://trello.com/c/AbC', url: 'https://trello.com/c/AbC/1-call-back' } });
    const result = await trello.run('create_card', { idList: LIST, name: 'Call back Ada', desc: 'Wants pricing', due: '2026-03-02T17:00:00Z', pos: 'top', idLabels: [LIST, '5abbe4b7ddc1b351ef961415'] });
    const req = trello.sent();
    expect([req.method, req.path]).toEqual(['POST', '/cards']);
    expect(req.query).toEqual({ idList: LIST, name: 'Call back Ada', desc: 'Wants pricing', due: '2026-03-02T17:00:00Z', pos: 'top', idLabels: `${LIST},5abbe4b7ddc1b351ef961415` });
    expect(req.headers.authorization).toBe('OAuth oauth_consumer_key="trello-key", oauth_token="trello-token"');
    expect(req.rawBody).toBe('');
    expect(result.data).toEqual({ id: '65f0c0ffee0000000000abcd', shortUrl: 'https://trello.com/c/AbC', url: 'https://trello.com/c/AbC/1-call-back' });
  });

  test('add_comment posts the text on the card', async () => {
    trello.fake.on('POST', '/cards/AbC/actions/comments', { body: { id: '65f0c0ffee0000000000dcba', type: 'commentCard' } });
    const result = await trello.run('add_comment', { card: 'AbC', text: 'Voicemail left.' });
    const req = trello.sent();
    expect([req.method, req.path]).toEqual(['POST', '/cards/AbC/actions/comments']);
    expect(req.query).toEqual({ text: 'Voicemail left.' });
    expect(result.data).toEqual({ id: '65f0c0ffee0000000000dcba' });
  });

  test('404 (Trello answers in plain text) is a not-found failure with Trello’s words, not retried', async () => {
    trello.fake.on('POST', '/cards/gone/actions/comments', { status: 404, body: 'The requested resource was not found.' });
    const err = await trello.fail('add_comment', { card: 'gone', text: 'x' });
    expect(err.type).toBe('vendor_not_found');
    expect(err.message).toContain('The requested resource was not found.');
    expect(trello.fake.requests).toHaveLength(1);
  });

  test('a list id that is not a Trello id is refused before anything is sent', async () => {
    const err = await trello.fail('create_card', { idList: 'inbox', name: 'x' });
    expect(err.type).toBe('invalid_params');
    expect(err.message).toContain('idList: a Trello id is 24 hex characters');
    expect(trello.fake.requests).toHaveLength(0);
  });
});
