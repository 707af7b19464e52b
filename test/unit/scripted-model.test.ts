import { bestFact, legacyScriptedReply, ScriptedChatModel } from '../../src/llm/scripted';

const model = new ScriptedChatModel();
const turn = (input: string, facts: string[]) => ({ prompt: 'Answer briefly and offer to book a call.', facts, history: [], input });
const facts = ['We are open from nine to five on weekdays.', 'Seats cost 5 dollars each month.'];

describe('the scripted chat model', () => {
  test('answers with the best-matching fact, across synonyms and word forms', async () => {
    expect(await model.reply(turn('What is the price?', facts))).toBe(facts[1]);
    expect(await model.reply(turn('Is it expensive?', facts))).toBe(facts[1]);
    expect(await model.reply(turn('What are your opening hours?', facts))).toBe(facts[0]);
    expect(bestFact(facts, 'the the the')).toBeUndefined();
  });

  test('never says the prompt: small talk in kind, else a fallback from the facts or a request to rephrase', async () => {
    expect(await model.reply(turn('thank you!', facts))).toBe('You are welcome! Anything else I can help with?');
    expect(await model.reply(turn('Hello there', facts))).toBe('Hello! What would you like to know?');
    expect(await model.reply(turn('qwerty', facts))).toBe(`I am not sure about that. What I can tell you: ${facts[0]}`);
    expect(await model.reply(turn('qwerty', []))).toBe('I am not sure about that. Could you put it another way?');
  });

  test('the model from before the patch still answers as it did (replayed histories)', () => {
    expect(legacyScriptedReply(turn('Tell me a joke', facts))).toBe('Answer briefly and offer to book a call.');
  });
});
