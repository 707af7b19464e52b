// The flow interpreter. Pure and deterministic (it runs inside the chatSession workflow): the model is reached
// only through the effects handed in.
import type { FlowCondition, FlowGraph, FlowNode } from './flow-types';

export const FLOW_ENDED = 'Flow has ended';

/** Where a conversation stands in its flow; carried across continue-as-new and stored with each turn. */
export interface EngineState {
  /** The question or ai_reply node waiting for the user's next message; null before the opening and after the end. */
  at: string | null;
  captured: Record<string, string>;
  ended: boolean;
  /** The last turns, for the model's context. */
  history: { role: 'user' | 'assistant'; content: string }[];
}

/** What the interpreter asks of the outside world (local activities in the workflow). */
export interface EngineEffects {
  reply(args: { prompt: string; facts: string[]; history: EngineState['history']; input: string }): Promise<string>;
  classify(args: { labels: string[]; input: string }): Promise<string | undefined>;
  /** Runs an automation node's action with the conversation's answers; absent or undefined: the node is skipped. */
  automation?(args: { node: Extract<FlowNode, { type: 'automation' }>; captured: Record<string, string> }): Promise<AutomationResult | undefined>;
}

/** How an automation node's action went (requestId names its automation run). */
export interface AutomationResult {
  node: string;
  requestId: string;
  success: boolean;
  detail: string;
}

export interface StepOutcome {
  replies: string[];
  captures: { field: string; value: string }[];
  skipped: { node: string; reason: string }[];
  automations: AutomationResult[];
}

const HISTORY_TAIL = 20;
const MAX_STEPS = 500;
export const AUTOMATION_SKIPPED = 'automation workflow not available yet: action not run';

export const initialEngineState = (): EngineState => ({ at: null, captured: {}, ended: false, history: [] });

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;

/** The accepted form of an answer, or undefined when it fails the question's validation. */
export function checkAnswer(node: Extract<FlowNode, { type: 'question' }>, raw: string): string | undefined {
  const answer = raw.trim();
  if (!answer) return undefined;
  switch (node.validate) {
    case 'email':
      return EMAIL.test(answer) ? answer.toLowerCase() : undefined;
    case 'phone': {
      const digits = answer.replace(/[\s().-]/g, '');
      return /^\+?\d{7,15}$/.test(digits) ? digits : undefined;
    }
    case 'number': {
      const n = Number(answer.replace(/,/g, ''));
      return answer !== '' && Number.isFinite(n) ? String(n) : undefined;
    }
    case 'choice':
      return node.choices!.find((c) => c.toLowerCase() === answer.toLowerCase());
    default:
      return answer;
  }
}

const defaultReask = (node: Extract<FlowNode, { type: 'question' }>) =>
  node.validate === 'choice' ? `Please answer with one of: ${node.choices!.join(', ')}.` : `That does not look like a valid ${node.validate}. ${node.text}`;

function holds(when: FlowCondition, captured: Record<string, string>, input: string | undefined, label: string | undefined): boolean {
  if ('keywords' in when) {
    const words = new Set((input ?? '').toLowerCase().split(/[^\p{L}\p{N}]+/u));
    return when.keywords.some((k) => words.has(k.toLowerCase()) || (k.includes(' ') && (input ?? '').toLowerCase().includes(k.toLowerCase())));
  }
  if ('classification' in when) return label !== undefined && label === when.classification;
  const value = captured[when.field];
  const expected = when.value === undefined ? undefined : String(when.value);
  switch (when.op) {
    case 'exists':
      return value !== undefined;
    case 'equals':
      return value !== undefined && value.toLowerCase() === expected?.toLowerCase();
    case 'not_equals':
      return value?.toLowerCase() !== expected?.toLowerCase();
    case 'contains':
      return value !== undefined && expected !== undefined && value.toLowerCase().includes(expected.toLowerCase());
    case 'gt':
    case 'lt': {
      const a = Number(value);
      const b = Number(expected);
      if (value === undefined || !Number.isFinite(a) || !Number.isFinite(b)) return false;
      return when.op === 'gt' ? a > b : a < b;
    }
  }
}

/**
 * Runs the flow from where it stands: with no input from the start (the opening), else feeding the input to the node
 * waiting for it. Advances through message, decision and automation nodes until a node waits for input or the end.
 */
export async function advance(graph: FlowGraph, state: EngineState, input: string | undefined, fx: EngineEffects): Promise<StepOutcome> {
  const nodes = new Map<string, FlowNode>(graph.nodes.map((n) => [n.id, n]));
  const out: StepOutcome = { replies: [], captures: [], skipped: [], automations: [] };
  const say = (text: string) => {
    out.replies.push(text);
    state.history = [...state.history, { role: 'assistant' as const, content: text }].slice(-HISTORY_TAIL);
  };
  let next: string | undefined;
  // An ai_reply looped back to (a chat loop) does not repeat its opening text.
  const cameFrom = input === undefined ? null : state.at;
  if (input === undefined) {
    next = graph.nodes.find((n) => n.type === 'start')!.id;
  } else {
    const waiting = state.at === null ? undefined : nodes.get(state.at);
    const history = state.history;
    state.history = [...state.history, { role: 'user' as const, content: input }].slice(-HISTORY_TAIL);
    if (waiting?.type === 'question') {
      const value = checkAnswer(waiting, input);
      if (value === undefined) {
        say(waiting.reask ?? defaultReask(waiting));
        return out;
      }
      state.captured = { ...state.captured, [waiting.field]: value };
      out.captures.push({ field: waiting.field, value });
      next = waiting.next;
    } else if (waiting?.type === 'ai_reply') {
      say(await fx.reply({ prompt: waiting.prompt, facts: waiting.facts ?? [], history, input }));
      next = waiting.next;
    } else {
      return out;
    }
  }
  for (let steps = 0; next !== undefined; steps++) {
    const node: FlowNode = nodes.get(next)!;
    if (steps > MAX_STEPS) throw new Error(`flow did not wait for input within ${MAX_STEPS} steps`);
    switch (node.type) {
      case 'start':
        next = node.next;
        break;
      case 'message':
        say(node.text);
        next = node.next;
        break;
      case 'question':
        say(node.text);
        state.at = node.id;
        return out;
      case 'ai_reply':
        if (node.text && cameFrom !== node.id) say(node.text);
        state.at = node.id;
        return out;
      case 'decision': {
        const labels: string[] = [...new Set(node.branches.flatMap((b): string[] => ('classification' in b.when ? [b.when.classification] : [])))];
        const label: string | undefined = labels.length && input !== undefined ? await fx.classify({ labels, input }) : undefined;
        next = node.branches.find((b): boolean => holds(b.when, state.captured, input, label))?.next ?? node.otherwise;
        break;
      }
      case 'automation': {
        const result: AutomationResult | undefined = fx.automation ? await fx.automation({ node, captured: state.captured }) : undefined;
        if (!result) {
          out.skipped.push({ node: node.id, reason: AUTOMATION_SKIPPED });
          next = node.next;
          break;
        }
        out.automations.push(result);
        next = result.success ? node.next : (node.on_failure ?? node.next);
        break;
      }
      case 'end':
        if (node.text) say(node.text);
        say(FLOW_ENDED);
        state.at = null;
        state.ended = true;
        return out;
    }
  }
  return out;
}
