// Pause and resume sent at once: the status a campaign shows is what its run obeys, the control signalled last.
import { defaultPayloadConverter } from '@temporalio/common';
import { keyringFromConfig } from '../../src/crypto/keyring';
import { decodeHistory, EncryptionCodec } from '../../src/temporal/codec';
import { campaignWorkflowId } from '../../src/temporal/ids';
import { CAMPAIGN_CONTROL_SIGNAL } from '../../src/campaigns/types';
import { callingWorkspace } from '../helpers/calls';
import { startTestApp, type TestApp } from '../helpers/stack';

jest.setTimeout(180_000);

let app: TestApp;
beforeAll(async () => {
  // No workers: the run takes no step of its own, so what the campaign shows is only what the controls wrote, and the
  // control the run will obey is the last one in its history.
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

/** The controls in the order the run receives them (its history). */
async function signalled(id: string): Promise<string[]> {
  const raw = await app.temporal.client.workflow.getHandle(campaignWorkflowId(id)).fetchHistory();
  const history = await decodeHistory(raw, new EncryptionCodec(keyringFromConfig(app.config)));
  return (history.events ?? [])
    .map((e) => e.workflowExecutionSignaledEventAttributes)
    .filter((s) => s?.signalName === CAMPAIGN_CONTROL_SIGNAL)
    .map((s) => defaultPayloadConverter.fromPayload<string>(s!.input!.payloads![0]!));
}

describe('concurrent campaign controls', () => {
  it('pause and resume at once, many rounds: the shown status always follows the control the run got last', async () => {
    const ws = await callingWorkspace(app);
    const created = await app.request('POST', '/v1/campaigns', { key: ws.apiKey, body: { name: 'Race', agent: ws.agentId, audience: { tag: 'none' } } });
    expect(created.status).toBe(200);
    const id = created.body.campaign_id as string;
    const wrong: string[] = [];
    for (let round = 0; round < 24; round++) {
      const before = (await signalled(id)).length;
      const actions = round % 2 ? ['pause', 'resume', 'pause', 'resume'] : ['resume', 'pause', 'resume', 'pause'];
      const answers = await Promise.all(actions.map((a) => app.request('POST', `/v1/campaigns/${id}/${a}`, { key: ws.apiKey })));
      expect(answers.map((r) => r.status)).toEqual(actions.map(() => 200));
      const got = await signalled(id);
      expect(got.length).toBe(before + actions.length);
      const expected = got.at(-1) === 'pause' ? 'paused' : 'running';
      const shown = (await app.request('GET', `/v1/campaigns/${id}`, { key: ws.apiKey })).body.campaign.status;
      if (shown !== expected) wrong.push(`round ${round}: run got ${got.slice(before).join(',')}, shows ${shown}`);
    }
    expect(wrong).toEqual([]);
  });
});
