import { isIdempotent } from '../../src/integrations/define';
import { findIntegration } from '../../src/integrations/registry';
import { fill, scriptedAnswers, type CaseContext, type IntegrationCases } from './action-cases';
import { actionHarness } from './integration-harness';

/**
 * The shared failure modes of each named action, run on the params of its first request case (cases/<integration>.ts):
 * a vendor 404, 400, 401, a 429 then the case's answers (retried after Retry-After), a 500 (retried when the action is
 * idempotent, else `outcome_unknown` after one try), and an unknown param (refused, nothing sent).
 */
export function describeFailureModes(set: IntegrationCases, actions: string[]): void {
  describe(`${set.integration} failure modes`, () => {
    const h = actionHarness(set);
    const first = (action: string) => {
      const c = set.cases.find((x) => x.action === action);
      if (!c) throw new Error(`${set.integration} has no request case for ${action}`);
      const ctx: CaseContext = { fake: h.fake.url, hooks: h.fake.url, requestId: 'req-harness-1' };
      return { c, ctx, params: fill(c.params, ctx) };
    };
    afterEach(() => h.fake.answerInOrder());

    it.each(actions)('%s: a 404 is vendor_not_found, a 400 vendor_rejected, a 401 asks to reconnect; none is retried', async (action) => {
      const { params } = first(action);
      h.fake.answerInOrder({ status: 404, body: { message: 'no such record' } });
      await expect(h.run(action, params)).rejects.toMatchObject({ type: 'vendor_not_found', retryable: false, attempts: 1 });
      h.fake.answerInOrder({ status: 400, body: { message: 'bad field value' } });
      await expect(h.run(action, params)).rejects.toMatchObject({ type: 'vendor_rejected', message: expect.stringContaining('bad field value'), attempts: 1 });
      h.fake.answerInOrder({ status: 401, body: { message: 'expired token' } });
      await expect(h.run(action, params)).rejects.toMatchObject({ type: 'vendor_auth_failed', message: expect.stringContaining('reconnect'), attempts: 1 });
    });

    it.each(actions)('%s: a 429 is waited out (Retry-After) and the run then succeeds', async (action) => {
      const { c, ctx, params } = first(action);
      h.fake.answerInOrder({ status: 429, headers: { 'retry-after': '2' }, body: { message: 'slow down' } }, ...scriptedAnswers(c, ctx).fake);
      await expect(h.run(action, params)).resolves.toEqual({ action, attempts: c.exchanges.length + 1, data: c.data });
      expect(h.sleeps).toEqual([2000]);
    });

    it.each(actions)('%s: a 500 is retried when the action is idempotent, else ends outcome_unknown after one try', async (action) => {
      const { params } = first(action);
      const def = findIntegration(set.integration)!.actions.find((a) => a.key === action)!;
      h.fake.answerInOrder({ status: 500, body: { message: 'internal error' } });
      const want = isIdempotent(def, params) ? { type: 'vendor_unavailable', retryable: true, attempts: 3 } : { type: 'outcome_unknown', retryable: false, attempts: 1 };
      await expect(h.run(action, params)).rejects.toMatchObject(want);
    });

    it.each(actions)('%s: an unknown param is refused by name and nothing is sent', async (action) => {
      const { params } = first(action);
      await expect(h.run(action, { ...params, not_a_param: 1 })).rejects.toMatchObject({ type: 'invalid_params', problems: expect.arrayContaining([expect.stringContaining('not_a_param')]) });
      expect(h.fake.requests).toHaveLength(0);
    });
  });
}
