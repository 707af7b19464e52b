import { noAuth } from '../auth';
import { defineIntegration } from '../define';
import request from './request';

/** `proxy`: a generic HTTP call to a user-supplied URL; its credentials come in the params, not a connection. */
export default defineIntegration({
  key: 'proxy',
  name: 'HTTP request',
  auth: noAuth,
  baseUrl: '',
  defaultAction: 'request',
  actions: [request],
});
