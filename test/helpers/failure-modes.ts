import { isIdempotent } from '../../src/integrations/define';
import { findIntegration, inputJsonSchema } from '../../src/integrations/registry';
import { fill, type CaseContext, type IntegrationCases } from './action-cases';
import { actionHarness } from './integration-harness';

/**
 * The shared failure modes of each named action, run on the params of its first request case (cases/<integration>.ts):
 * a vendor 404, 400, 401, a 429 then the case's answers (retried after Retry-After), a 500 (retried when the action is
 * idempotent, else `outcome_unknown` after one try), and bad params (refused by name, nothing sent).
 */
export function describeFailureModes(set: IntegrationCases, actions: string[]): void {
  describe(`${set.integration} failure modes`, () => {
    const h = actionHarness(set);
    const first = (action: string) => {
      const c = set.cases.find((x) => x.action === action);
      if (!c) throw new Error(`${set.integration} has no request case for ${action}`);
      const ctx: CaseContext = { fake: h.fake.url, hooks: h.fake.url, requestId: 'req-harness-1' };
      // One fake stands for both (a connection's second origin too): the answers go out in the case's order.
      return { c, ctx, params: fill(c.params, ctx), answers: c.exchanges.map((e) => fill(e.response, ctx)), opts: { callData: c.callData } };
    };
    afterEach(() => h.fake.answerInOrder());

    it.each(actions)('%s: a 404 is vendor_not_found, a 400 vendor_rejected, a 401 asks to reconnect; none is retried', async (action) => {
      const { params, opts } = first(action);
      h.fake.answerInOrder({ status: 404, body: { message: 'no such record' } });
      await expect(h.run(action, params, opts)).rejects.toMatchObject({ type: 'vendor_not_found', retryable: false, attempts: 1 });
      h.fake.answerInOrder({ status: 400, body: { message: 'bad field value' } });
      await expect(h.run(action, params, opts)).rejects.toMatchObject({
        type: 'vendor_rejected',
        message: expect.stringContaining('bad field value'),
        attempts: 1,
      });
      h.fake.answerInOrder({ status: 401, body: { message: 'expired token' } });
      await expect(h.run(action, params, opts)).rejects.toMatchObject({
        type: 'vendor_auth_failed',
        message: expect.stringContaining('reconnect'),
        attempts: 1,
      });
    });

    it.each(actions)('%s: a 429 is waited out (Retry-After) and the run then succeeds', async (action) => {
      const { c, params, answers, opts } = first(action);
      h.fake.answerInOrder({ status: 429, headers: { 'retry-after': '2' }, body: { message: 'slow down' } }, ...answers);
      await expect(h.run(action, params, opts)).resolves.toEqual({ action, attempts: c.exchanges.length + 1, data: c.data });
      expect(h.sleeps).toEqual([2000]);
    });

    it.each(actions)('%s: a 500 is retried when the action is idempotent, else ends outcome_unknown after one try', async (action) => {
      const { params, opts } = first(action);
      const def = findIntegration(set.integration)!.actions.find((a) => a.key === action)!;
      h.fake.answerInOrder({ status: 500, body: { message: 'internal error' } });
      const want = isIdempotent(def, params)
        ? { type: 'vendor_unavailable', retryable: true, attempts: 3 }
        : { type: 'outcome_unknown', retryable: false, attempts: 1 };
      await expect(h.run(action, params, opts)).rejects.toMatchObject(want);
    });

    it.each(actions)(
      '%s: bad params (an unknown one where the schema is closed, else a required one left out) are refused by name, nothing sent',
      async (action) => {
        const { params, opts } = first(action);
        const schema = inputJsonSchema(findIntegration(set.integration)!.actions.find((a) => a.key === action)!) as {
          additionalProperties?: unknown;
          required?: string[];
        };
        const missing = schema.required?.[0];
        expect({ action, checkable: schema.additionalProperties === false || missing !== undefined }).toEqual({ action, checkable: true });
        const [bad, named] =
          schema.additionalProperties === false
            ? [{ ...params, not_a_param: 1 }, 'not_a_param']
            : [Object.fromEntries(Object.entries(params).filter(([k]) => k !== missing)), missing!];
        await expect(h.run(action, bad, opts)).rejects.toMatchObject({
          type: 'invalid_params',
          problems: expect.arrayContaining([expect.stringContaining(named)]),
        });
        expect(h.fake.requests).toHaveLength(0);
      },
    );
  });
}
