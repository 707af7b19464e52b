import { z } from 'zod';
import { latestActionVersion } from '../integrations/registry';
import { resolveAction } from '../integrations/run';
import { issueLines } from '../validation';

const id = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'node ids: letters, digits, _ and -, 1–64 characters');
const text = z.string().min(1).max(4000);

const Condition = z.union([
  z.strictObject({
    field: z.string().min(1).max(64),
    op: z.enum(['equals', 'not_equals', 'contains', 'gt', 'lt', 'exists']),
    value: z.union([z.string(), z.number()]).optional(),
  }),
  z.strictObject({ keywords: z.array(z.string().min(1)).min(1) }),
  z.strictObject({ classification: z.string().min(1).max(64) }),
]);

const Node = z.discriminatedUnion('type', [
  z.strictObject({ id, type: z.literal('start'), next: id }),
  z.strictObject({ id, type: z.literal('message'), text, next: id }),
  z.strictObject({
    id,
    type: z.literal('question'),
    text,
    /** The lead field the answer is captured into (a standard field or a custom field key). */
    field: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'lowercase letters, digits and underscores, starting with a letter'),
    validate: z.enum(['text', 'email', 'phone', 'number', 'choice']).default('text'),
    choices: z.array(z.string().min(1)).min(2).optional(),
    reask: text.optional(),
    next: id,
  }),
  z.strictObject({ id, type: z.literal('ai_reply'), text: text.optional(), prompt: text, facts: z.array(text).max(100).optional(), next: id }),
  z.strictObject({ id, type: z.literal('decision'), branches: z.array(z.strictObject({ when: Condition, next: id })).min(1), otherwise: id }),
  z.strictObject({
    id,
    type: z.literal('automation'),
    /** The integration (automation type, as on the automation endpoint) and its action. */
    integration: z.string().min(1),
    action: z.string().min(1),
    /** The action's version; set to the latest at import when absent (a later change to its params never breaks the flow). */
    version: z.number().int().min(1).optional(),
    params: z.record(z.string(), z.unknown()).optional(),
    next: id,
    /** Where the flow goes when the action failed; absent: on to next as on success. */
    on_failure: id.optional(),
  }),
  z.strictObject({ id, type: z.literal('end'), text: text.optional() }),
]);

export const FlowGraph = z.strictObject({ nodes: z.array(Node).min(2).max(500) });

export type FlowGraph = z.infer<typeof FlowGraph>;
export type FlowNode = FlowGraph['nodes'][number];
export type FlowCondition = z.infer<typeof Condition>;

const WAITS = new Set(['question', 'ai_reply']);

/** Cross-node rules zod cannot state: one start, unique ids, edges to existing nodes, choices, known actions, no input-free loop. */
function graphProblems(graph: FlowGraph): string[] {
  const problems: string[] = [];
  const byId = new Map<string, FlowNode>();
  for (const n of graph.nodes) {
    if (byId.has(n.id)) problems.push(`node "${n.id}": duplicate id`);
    byId.set(n.id, n);
  }
  const starts = graph.nodes.filter((n) => n.type === 'start');
  if (starts.length !== 1) problems.push(`the graph needs exactly one start node (found ${starts.length})`);
  if (!graph.nodes.some((n) => n.type === 'end')) problems.push('the graph needs an end node');
  for (const n of graph.nodes) {
    for (const target of edgesOf(n)) if (!byId.has(target)) problems.push(`node "${n.id}": edge to unknown node "${target}"`);
    if (n.type === 'question' && n.validate === 'choice' && !n.choices) problems.push(`node "${n.id}": validate "choice" needs "choices"`);
    if (n.type === 'question' && n.validate !== 'choice' && n.choices) problems.push(`node "${n.id}": "choices" only go with validate "choice"`);
    if (n.type === 'automation') {
      try {
        resolveAction(n.integration, n.action, n.version);
      } catch (err) {
        problems.push(`node "${n.id}": ${(err as Error).message}`);
      }
    }
  }
  if (problems.length) return problems;
  // A loop through nodes that never wait for input would spin for ever: every cycle must pass a question or ai_reply.
  const state = new Map<string, 'open' | 'done'>();
  const visit = (nodeId: string, path: string[]): void => {
    const node = byId.get(nodeId)!;
    if (WAITS.has(node.type) || state.get(nodeId) === 'done') return;
    if (state.get(nodeId) === 'open') {
      problems.push(`loop without a question or ai_reply: ${[...path.slice(path.indexOf(nodeId)), nodeId].join(' → ')}`);
      return;
    }
    state.set(nodeId, 'open');
    for (const t of edgesOf(node)) visit(t, [...path, nodeId]);
    state.set(nodeId, 'done');
  };
  for (const n of graph.nodes) visit(n.id, []);
  return problems;
}

/** The nodes a node can lead to. */
export function edgesOf(n: FlowNode): string[] {
  if (n.type === 'end') return [];
  if (n.type === 'decision') return [...n.branches.map((b) => b.next), n.otherwise];
  if (n.type === 'automation' && n.on_failure) return [n.next, n.on_failure];
  return [n.next];
}

/** The graph as imported: each automation node without a version pinned to its action's latest (a later params change never breaks it). */
export function pinFlowActionVersions(graph: FlowGraph): FlowGraph {
  return {
    ...graph,
    nodes: graph.nodes.map((n) => {
      if (n.type !== 'automation' || n.version !== undefined) return n;
      const version = latestActionVersion(n.integration, n.action);
      return version === undefined ? n : { ...n, version };
    }),
  };
}

/** Validates a flow graph; throws an Error listing every problem (path and rule) when it is not a valid flow. */
export function parseFlowGraph(input: unknown): FlowGraph {
  const parsed = FlowGraph.safeParse(input);
  if (!parsed.success) {
    const lines = issueLines(parsed.error.issues, 'graph', (p) => `graph.${p.join('.')}`);
    throw new Error(`invalid flow graph:\n  ${lines.join('\n  ')}`);
  }
  const problems = graphProblems(parsed.data);
  if (problems.length) throw new Error(`invalid flow graph:\n  ${problems.join('\n  ')}`);
  return parsed.data;
}
