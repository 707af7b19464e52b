import { advance, AUTOMATION_SKIPPED, checkAnswer, FLOW_ENDED, initialEngineState, type EngineEffects } from '../../src/chat/engine';
import { parseFlowGraph } from '../../src/chat/flow-schema';
import { ScriptedChatModel } from '../../src/llm/scripted';

const scripted = new ScriptedChatModel();
const fx: EngineEffects = { reply: (a) => scripted.reply(a), classify: (a) => scripted.classify(a) };

const graph = parseFlowGraph({
  nodes: [
    { id: 'start', type: 'start', next: 'ask' },
    { id: 'ask', type: 'question', text: 'How many seats?', field: 'seats', validate: 'number', next: 'route' },
    {
      id: 'route',
      type: 'decision',
      branches: [
        { when: { field: 'seats', op: 'gt', value: 10 }, next: 'big' },
        { when: { classification: 'sales' }, next: 'big' },
      ],
      otherwise: 'chat',
    },
    { id: 'big', type: 'automation', integration: 'hubspot', action: 'create_contact', next: 'done' },
    { id: 'chat', type: 'ai_reply', prompt: 'Help.', facts: ['Seats cost 5 dollars each month.'], next: 'done' },
    { id: 'done', type: 'end' },
  ],
});

describe('flow graph validation', () => {
  test.each([
    [
      {
        nodes: [
          { id: 'a', type: 'start', next: 'b' },
          { id: 'b', type: 'end' },
          { id: 'c', type: 'start', next: 'b' },
        ],
      },
      'exactly one start node (found 2)',
    ],
    [
      {
        nodes: [
          { id: 'a', type: 'start', next: 'zz' },
          { id: 'b', type: 'end' },
        ],
      },
      'node "a": edge to unknown node "zz"',
    ],
    [
      {
        nodes: [
          { id: 'a', type: 'start', next: 'b' },
          { id: 'b', type: 'message', text: 'hi', next: 'a' },
        ],
      },
      'the graph needs an end node',
    ],
    [
      {
        nodes: [
          { id: 'a', type: 'start', next: 'b' },
          { id: 'b', type: 'question', text: 'q', field: 'x', validate: 'choice', next: 'e' },
          { id: 'e', type: 'end' },
        ],
      },
      'validate "choice" needs "choices"',
    ],
    [
      {
        nodes: [
          { id: 'a', type: 'start', next: 'b' },
          { id: 'b', type: 'message', text: 'hi', next: 'c' },
          { id: 'c', type: 'decision', branches: [{ when: { keywords: ['x'] }, next: 'e' }], otherwise: 'b' },
          { id: 'e', type: 'end' },
        ],
      },
      'loop without a question or ai_reply: b → c → b',
    ],
    [
      {
        nodes: [
          { id: 'a', type: 'start', next: 'b' },
          { id: 'b', type: 'teleport' },
        ],
      },
      'graph.nodes.1.type',
    ],
    [{ start: 'a', nodes: [] }, 'graph.nodes'],
    [
      {
        nodes: [
          { id: 'a', type: 'start', next: 'b' },
          { id: 'b', type: 'automation', integration: 'nope', action: 'x', next: 'e' },
          { id: 'e', type: 'end' },
        ],
      },
      'node "b": unknown automationType "nope"',
    ],
    [
      {
        nodes: [
          { id: 'a', type: 'start', next: 'b' },
          { id: 'b', type: 'automation', integration: 'hubspot', action: 'fly', next: 'e' },
          { id: 'e', type: 'end' },
        ],
      },
      'node "b": unknown action "fly" for hubspot',
    ],
    [
      {
        nodes: [
          { id: 'a', type: 'start', next: 'b' },
          { id: 'b', type: 'automation', integration: 'proxy', action: 'request', next: 'e', on_failure: 'zz' },
          { id: 'e', type: 'end' },
        ],
      },
      'node "b": edge to unknown node "zz"',
    ],
  ])('rejects %#', (input, problem) => {
    expect(() => parseFlowGraph(input)).toThrow(problem);
  });
});

describe('flow interpreter', () => {
  test('asks, re-asks, captures, decides on captured values, skips automations, ends', async () => {
    const state = initialEngineState();
    expect((await advance(graph, state, undefined, fx)).replies).toEqual(['How many seats?']);
    expect((await advance(graph, state, 'lots', fx)).replies).toEqual(['That does not look like a valid number. How many seats?']);
    const out = await advance(graph, state, '12', fx);
    expect(out.captures).toEqual([{ field: 'seats', value: '12' }]);
    expect(out.skipped).toEqual([{ node: 'big', reason: AUTOMATION_SKIPPED }]);
    expect(out.replies).toEqual([FLOW_ENDED]);
    expect(state.ended).toBe(true);
  });

  test('automation nodes: the effect runs the action with the answers; a failure follows on_failure, else next', async () => {
    const flow = parseFlowGraph({
      nodes: [
        { id: 'start', type: 'start', next: 'ask' },
        { id: 'ask', type: 'question', text: 'Company?', field: 'company', next: 'crm' },
        { id: 'crm', type: 'automation', integration: 'proxy', action: 'request', params: { apiMethod: 'POST' }, next: 'ok', on_failure: 'sorry' },
        { id: 'ok', type: 'message', text: 'Synced.', next: 'end' },
        { id: 'sorry', type: 'message', text: 'Not synced.', next: 'end' },
        { id: 'end', type: 'end' },
      ],
    });
    const run = async (success: boolean) => {
      const seen: unknown[] = [];
      const effects: EngineEffects = {
        ...fx,
        automation: async ({ node, captured }) => (
          seen.push([node.id, node.action, captured]),
          { node: node.id, requestId: 'r1', success, detail: success ? 'ok' : 'vendor_rejected: no' }
        ),
      };
      const state = initialEngineState();
      await advance(flow, state, undefined, effects);
      const out = await advance(flow, state, 'Acme', effects);
      return { seen, out };
    };
    const good = await run(true);
    expect(good.seen).toEqual([['crm', 'request', { company: 'Acme' }]]);
    expect(good.out.replies).toEqual(['Synced.', FLOW_ENDED]);
    expect(good.out.automations).toEqual([{ node: 'crm', requestId: 'r1', success: true, detail: 'ok' }]);
    expect(good.out.skipped).toEqual([]);
    expect((await run(false)).out.replies).toEqual(['Not synced.', FLOW_ENDED]);
    // An effect answering undefined (a run from before the chat-automation patch) skips the node.
    const state = initialEngineState();
    await advance(flow, state, undefined, { ...fx, automation: async () => undefined });
    const skipped = await advance(flow, state, 'Acme', { ...fx, automation: async () => undefined });
    expect(skipped.skipped).toEqual([{ node: 'crm', reason: AUTOMATION_SKIPPED }]);
    expect(skipped.replies).toEqual(['Synced.', FLOW_ENDED]);
  });

  test('classification and the scripted model answer from the flow content', async () => {
    const a = initialEngineState();
    await advance(graph, a, undefined, fx);
    await advance(graph, a, '2', fx);
    expect(a.at).toBe('chat');
    expect((await advance(graph, a, 'what does a seat cost?', fx)).replies).toEqual(['Seats cost 5 dollars each month.', FLOW_ENDED]);
    expect(await scripted.classify({ labels: ['sales', 'support'], input: 'I need support' })).toBe('support');
    expect(await scripted.classify({ labels: ['sales'], input: 'hello' })).toBeUndefined();
  });

  test('answer validation', () => {
    const q = (validate: string, choices?: string[]) => ({
      id: 'q',
      type: 'question' as const,
      text: 'q',
      field: 'f',
      validate: validate as any,
      choices,
      next: 'x',
    });
    expect(checkAnswer(q('email'), ' Ann@Example.com ')).toBe('ann@example.com');
    expect(checkAnswer(q('email'), 'ann@')).toBeUndefined();
    expect(checkAnswer(q('phone'), '(714) 555-1234')).toBe('7145551234');
    expect(checkAnswer(q('phone'), '123')).toBeUndefined();
    expect(checkAnswer(q('number'), '1,500')).toBe('1500');
    expect(checkAnswer(q('choice', ['Basic', 'Pro']), 'pro')).toBe('Pro');
    expect(checkAnswer(q('choice', ['Basic', 'Pro']), 'gold')).toBeUndefined();
  });
});
