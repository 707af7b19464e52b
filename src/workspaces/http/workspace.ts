import { z } from 'zod';
import { workspaceKeyIdentity } from '../db/workspaces';
import { defineRoute, workspaceOf } from '../../http/route';

const Me = z.object({
  status: z.literal('success'),
  workspace_id: z.uuid(),
  workspace_name: z.string(),
  api_key_prefix: z.string().describe('Readable prefix of the key that made this request'),
});

/** GET /v1/me: the workspace the presented API key belongs to (a cheap way to check a key). */
export const getMe = defineRoute({
  method: 'get',
  path: '/v1/me',
  tag: 'Workspace',
  summary: 'Identify the workspace of the API key',
  auth: 'apiKey',
  responses: { 200: { description: 'The key is valid', schema: Me } },
  async handler(input) {
    const workspaceId = workspaceOf(input);
    const row = await workspaceKeyIdentity(input.deps.db, workspaceId, input.auth!.apiKeyId);
    return { status: 'success', workspace_id: workspaceId, workspace_name: row?.name ?? '', api_key_prefix: row?.prefix ?? '' };
  },
});
