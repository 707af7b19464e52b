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
    { id: 'big', type: 'automation', integration: 'hubspot', action: 'create_deal', next: 'done' },
    { id: 'chat', type: 'ai_reply', prompt: 'Help.', facts: ['Seats cost 5 dollars each month.'], next: 'done' },
    { id: 'done', type: 'end' },
  ],
});

describe('flow graph validation', () => {
  test.each([
    [{ nodes: [{ id: 'a', type: 'start', next: 'b' }, { id: 'b', type: 'end' }, { id: 'c', type: 'start', next: 'b' }] }, 'exactly one start node (found 2)'],
    [{ nodes: [{ id: 'a', type: 'start', next: 'zz' }, { id: 'b', type: 'end' }] }, 'node "a": edge to unknown node "zz"'],
    [{ nodes: [{ id: 'a', type: 'start', next: 'b' }, { id: 'b', type: 'message', text: 'hi', next: 'a' }] }, 'the graph needs an end node'],
    [{ nodes: [{ id: 'a', type: 'start', next: 'b' }, { id: 'b', type: 'question', text: 'q', field: 'x', validate: 'choice', next: 'e' }, { id: 'e', type: 'end' }] }, 'validate "choice" needs "choices"'],
    [
      { nodes: [{ id: 'a', type: 'start', next: 'b' }, { id: 'b', type: 'message', text: 'hi', next: 'c' }, { id: 'c', type: 'decision', branches: [{ when: { keywords: ['x'] }, next: 'e' }], otherwise: 'b' }, { id: 'e', type: 'end' }] },
      'loop without a question or ai_reply: b → c → b',
    ],
    [{ nodes: [{ id: 'a', type: 'start', next: 'b' }, { id: 'b', type: 'teleport' }] }, 'graph.nodes.1.type'],
    [{ start: 'a', nodes: [] }, 'graph.nodes'],
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
    const q = (validate: string, choices?: string[]) => ({ id: 'q', type: 'question' as const, text: 'q', field: 'f', validate: validate as any, choices, next: 'x' });
    expect(checkAnswer(q('email'), ' Ann@Example.com ')).toBe('ann@example.com');
    expect(checkAnswer(q('email'), 'ann@')).toBeUndefined();
    expect(checkAnswer(q('phone'), '(714) 555-1234')).toBe('7145551234');
    expect(checkAnswer(q('phone'), '123')).toBeUndefined();
    expect(checkAnswer(q('number'), '1,500')).toBe('1500');
    expect(checkAnswer(q('choice', ['Basic', 'Pro']), 'pro')).toBe('Pro');
    expect(checkAnswer(q('choice', ['Basic', 'Pro']), 'gold')).toBeUndefined();
  });
});
