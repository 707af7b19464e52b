import type { IntegrationCases } from '../../helpers/action-cases';

const LIST = '5abbe4b7ddc1b351ef961414';
const H = { authorization: 'OAuth oauth_consumer_key="trello-key", oauth_token="trello-token"' };

/** Trello: key and token in the Authorization header; fields as query parameters. */
export const trello: IntegrationCases = {
  integration: 'trello',
  connection: { kind: 'api_key', secrets: { api_key: 'trello-key', token: 'trello-token' } },
  cases: [
    {
      action: 'create_card',
      params: {
        idList: LIST,
        name: 'Call back Ada',
        desc: 'Wants pricing',
        due: '2026-03-02T17:00:00Z',
        pos: 'top',
        idLabels: [LIST, '5abbe4b7ddc1b351ef961415'],
      },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/1/cards',
            query: {
              idList: LIST,
              name: 'Call back Ada',
              desc: 'Wants pricing',
              due: '2026-03-02T17:00:00Z',
              pos: 'top',
              idLabels: `${LIST},5abbe4b7ddc1b351ef961415`,
            },
            headers: H,
            rawBody: '',
          },
          response: { body: { id: '65f0c0ffee0000000000abcd', shortUrl: 'https://trello.com/c/AbC', url: 'https://trello.com/c/AbC/1-call-back' } },
        },
      ],
      data: { id: '65f0c0ffee0000000000abcd', shortUrl: 'https://trello.com/c/AbC', url: 'https://trello.com/c/AbC/1-call-back' },
    },
    {
      action: 'add_comment',
      params: { card: 'AbC', text: 'Voicemail left.' },
      exchanges: [
        {
          request: { method: 'POST', path: '/1/cards/AbC/actions/comments', query: { text: 'Voicemail left.' }, headers: H, rawBody: '' },
          response: { body: { id: '65f0c0ffee0000000000dcba', type: 'commentCard' } },
        },
      ],
      data: { id: '65f0c0ffee0000000000dcba' },
    },
  ],
};
