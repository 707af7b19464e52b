import { phoneEnding, type callingWorkspace } from './calls';
import type { TestApp } from './stack';
import { eventually } from './webhook-receiver';

/**
 * Places a call with POST /v1/agent to a number ending 0090 (a person answers; the simulator fetches the signed TwiML
 * and opens no stream) and waits for that TwiML: the call id, its ledger entry and the `<Stream>`'s parameters, so the
 * test can open the stream as Twilio would.
 */
export async function placeHarnessCall(app: TestApp, ws: Awaited<ReturnType<typeof callingWorkspace>>) {
  const placed = await app.request('POST', '/v1/agent', { key: ws.apiKey, body: { agent: ws.agentId, phone: phoneEnding('0090') } });
  if (placed.status !== 200) throw new Error(`POST /v1/agent answered ${placed.status}: ${JSON.stringify(placed.body)}`);
  const callId = placed.body.call_id as string;
  const entry = await eventually(
    async () => {
      const e = app.simulator!.ledger.forCallId(callId);
      return e?.twiml ? e : undefined;
    },
    30_000,
    'the TwiML fetched',
  );
  const parameters = Object.fromEntries([...entry.twiml!.matchAll(/<Parameter name="([^"]+)" value="([^"]+)"\/>/g)].map((m) => [m[1]!, m[2]!]));
  return { callId, entry, parameters };
}
