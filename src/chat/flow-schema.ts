import { latestActionVersion } from '../integrations/registry';
import { FlowGraph, type FlowNode } from './flow-types';
import { resolveAction } from '../integrations/run';
import { issueLines } from '../core/validation';

export { FlowGraph } from './flow-types';

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
function edgesOf(n: FlowNode): string[] {
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
