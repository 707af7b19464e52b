import { runIntegrationAction } from '../../src/integrations/run';
import { baseOverride, caseConnection, expectExchanges, fill, scriptedAnswers, type CaseContext } from '../helpers/action-cases';
import { startVendorFake, type VendorFake } from '../helpers/vendor-fake';
import { allCases } from './cases';

/**
 * Every request case run straight through runIntegrationAction (the code the endpoint's activity calls), without the
 * api and Temporal: the quick check of the same data test/e2e/automation-catalogue.test.ts runs through the endpoint.
 */
describe('every request case through runIntegrationAction', () => {
  let fake: VendorFake;
  let hooks: VendorFake;

  beforeAll(async () => {
    fake = await startVendorFake();
    hooks = await startVendorFake();
  });
  afterAll(async () => {
    await fake?.stop();
    await hooks?.stop();
  });

  const rows = allCases.flatMap((set) => set.cases.map((c) => [`${set.integration}.${c.action}${c.name ? ` (${c.name})` : ''}`, set, c] as const));
  it.each(rows)('%s sends exactly the expected requests and gives the expected data', async (_name, set, c) => {
    fake.clear();
    hooks.clear();
    const ctx: CaseContext = { fake: fake.url, hooks: hooks.url, requestId: 'req-direct-1' };
    const answers = scriptedAnswers(c, ctx);
    fake.answerInOrder(...answers.fake);
    hooks.answerInOrder(...answers.hooks);
    const connection = caseConnection(set, fake.url, hooks.url);
    const base = baseOverride(set, fake.url);
    const out = await runIntegrationAction({
      integration: set.integration,
      action: c.action,
      params: fill(c.params, ctx),
      connection,
      idempotencyKey: ctx.requestId,
      call: { callData: c.callData },
      baseUrls: base === undefined ? {} : { [set.integration]: base },
      ssrfAllowlist: ['127.0.0.1/8'],
    });
    // One attempt per request: a case's requests are all first tries.
    expect(out).toEqual({ action: c.action, attempts: c.exchanges.length, data: c.data });
    await expectExchanges(set, c, { fake: fake.requests, hooks: hooks.requests }, ctx);
  });

  it('every expected request names headers (the credential it carries, or that it carries none)', () => {
    const bare = allCases.flatMap((set) =>
      set.cases.flatMap((c) => c.exchanges.filter((e) => Object.keys(e.request.headers ?? {}).length === 0).map(() => `${set.integration}.${c.action}`)),
    );
    expect(bare).toEqual([]);
  });

  it('the request check is live: a header, a body field, a query or a description violation each fail it', async () => {
    const set = allCases.find((s) => s.integration === 'hubspot')!;
    const c = set.cases[0]!;
    const ctx: CaseContext = { fake: 'http://127.0.0.1:1', hooks: 'http://127.0.0.1:2', requestId: 'r' };
    const sent = {
      method: 'POST',
      path: '/crm/v3/objects/contacts',
      query: {},
      headers: { authorization: 'Bearer pat-na1-test', 'content-type': 'application/json' },
      rawBody: '{}',
      body: c.exchanges[0]!.request.body,
    };
    await expect(expectExchanges(set, c, { fake: [sent], hooks: [] }, ctx)).resolves.toBeUndefined();
    const variants = [
      { ...sent, headers: { ...sent.headers, authorization: 'Bearer other' } },
      { ...sent, body: { properties: { email: 'ada@example.com' }, associations: [] } },
      { ...sent, query: { archived: 'true' } },
      { ...sent, path: '/crm/v3/objects/contact' },
    ];
    for (const v of variants) await expect(expectExchanges(set, c, { fake: [v], hooks: [] }, ctx)).rejects.toThrow();
    // An excuse that is no longer true (the operation is described) fails too.
    await expect(expectExchanges(set, { ...c, notDescribed: 'stale' }, { fake: [sent], hooks: [] }, ctx)).rejects.toThrow(/undescribed/);
    await expect(
      expectExchanges(
        set,
        { ...c, exchanges: [{ ...c.exchanges[0]!, request: { ...c.exchanges[0]!.request, body: { props: {} } } }] },
        { fake: [{ ...sent, body: { props: {} } }], hooks: [] },
        ctx,
      ),
    ).rejects.toThrow(/problems/);
  });
});
