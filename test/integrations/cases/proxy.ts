import type { IntegrationCases } from '../../helpers/action-cases';

// The proxy calls arbitrary URLs: no vendor description applies; the requests are checked field by field.
/** The proxy: no connection; the params carry the URL (the fake's), the auth and the headers. */
export const proxy: IntegrationCases = {
  integration: 'proxy',
  connection: { kind: 'none', secrets: {} },
  base: null,
  cases: [
    {
      action: 'request',
      params: {
        apiMethod: 'POST',
        apiURL: '{fake}/hook?x=1',
        authenticationSelect: 'bearer',
        bearerToken: 'tok',
        enableHeaders: true,
        headers: [{ name: 'X-Trace', value: 'abc' }],
        requestBodyJson: { a: 1 },
      },
      exchanges: [
        {
          request: {
            method: 'POST',
            path: '/hook',
            query: { x: '1' },
            headers: { authorization: 'Bearer tok', 'x-trace': 'abc', 'content-type': 'application/json' },
            body: { a: 1 },
          },
          response: { status: 201, body: { received: true } },
        },
      ],
      data: { status: 201, headers: expect.objectContaining({ 'content-type': 'application/json' }), body: { received: true } },
    },
  ],
};
