import { agentDetail, listAgents } from '../../db/repos/agent-admin';
import { notFound } from '../../errors';
import { isUuid } from '../../ids';
import { encodeCursor } from '../cursor';
import { defineRoute, workspaceOf } from '../route';
import { AgentBody, AgentPage, ListQuery } from './agent-schemas';
import { keysetPage, presentAgent } from './agent-present';

const TAG = 'Agents';
/** The one answer for an unknown agent and another workspace's. */
export const AGENT_NOT_FOUND = 'Agent not found';
const EXAMPLE_ID = '3f2b8c4e-9a61-4d2f-b7e3-5c1a0d9e8f47';

/** GET /v1/agents: the workspace's agents with their numbers, newest first, a page at a time. */
export const listAgentsRoute = defineRoute({
  method: 'get',
  path: '/v1/agents',
  tag: TAG,
  summary: 'List agents',
  description: "Newest first, each with its phone group's numbers (valid `from` values of POST /v1/agent), transfer number and call window; pass next_cursor as cursor for the next page.",
  auth: 'apiKey',
  query: ListQuery,
  example: { query: { limit: 20, cursor: encodeCursor({ at: '2026-06-01T12:00:00.000000Z', id: EXAMPLE_ID }) } },
  responses: {
    200: { description: 'A page of agents', schema: AgentPage },
    400: { description: 'A malformed limit or cursor' },
  },
  async handler(input) {
    const ws = workspaceOf(input);
    const { page, next_cursor } = await keysetPage(input.query, (limit, after) => listAgents(input.deps.db, ws, limit, after));
    return { status: 'success' as const, agents: page.map(presentAgent), next_cursor };
  },
});

/** GET /v1/agents/{id}: one agent with its numbers. */
export const getAgentRoute = defineRoute({
  method: 'get',
  path: '/v1/agents/:id',
  tag: TAG,
  summary: 'Get an agent',
  description: "The agent with its phone group's numbers, transfer number and call window. Another workspace's agent is a 404.",
  auth: 'apiKey',
  example: { params: { id: EXAMPLE_ID } },
  responses: {
    200: { description: 'The agent', schema: AgentBody },
    404: { description: 'Agent not found' },
  },
  async handler(input) {
    const id = input.params.id ?? '';
    const agent = isUuid(id) ? await agentDetail(input.deps.db, workspaceOf(input), id) : undefined;
    if (!agent) throw notFound(AGENT_NOT_FOUND);
    return { status: 'success' as const, agent: presentAgent(agent) };
  },
});
