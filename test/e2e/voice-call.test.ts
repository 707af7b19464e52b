import { callingWorkspace, callResult } from '../helpers/calls';
import { startTestApp, type TestApp } from '../helpers/stack';
import { TwilioStreamClient } from '../helpers/twilio-stream-client';
import { placeHarnessCall } from '../helpers/voice-calls';
import { EnergyVad, ScriptedStt, ToneTts } from '../helpers/voice-fakes';
import { eventually } from '../helpers/webhook-receiver';
import { startVoice, type RunningVoice } from '../../src/voice/http/main';

jest.setTimeout(120_000);

let app: TestApp;
let voice: RunningVoice;
const stt = new ScriptedStt();
beforeAll(async () => {
  app = await startTestApp({ workers: true, simulator: true });
  // The real provider: hang-ups go through the carrier simulator, whose callbacks close the call as for any call.
  voice = await startVoice(
    { ...app.config, VOICE_PORT: 0, VOICE_DRAIN_MS: 0 },
    {
      engines: {
        vad: new Map([['test/energy', new EnergyVad()]]),
        vadName: 'test/energy',
        stt: new Map([['test/scripted', stt]]),
        tts: new Map([['test/tone', new ToneTts(20)]]),
      },
      defaults: { endOfSpeechMs: 300, voice: { engine: 'test/tone', voiceId: null }, stt: { engine: 'test/scripted' } },
    },
  );
});
afterAll(async () => {
  await voice?.close();
  await app?.close();
});

describe('a placed call with the voice agent on it', () => {
  it('the simulator (…0090) fetches the TwiML as Twilio would; the stream greets, hears the callee and the agent hangs up through the provider', async () => {
    const ws = await callingWorkspace(app);
    const { callId, entry, parameters } = await placeHarnessCall(app, ws);
    expect(new URL(entry.url).searchParams.get('call_id')).toBe(callId);
    expect(entry.twiml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?><Response><Connect><Stream url="[^"?]+">/);

    const client = new TwilioStreamClient(voice.streamUrl, entry.sid, parameters);
    await client.open();
    await eventually(async () => client.echoed.includes('0:0'), 15_000, 'the greeting heard');
    stt.script.push('No thanks, goodbye.');
    client.speak(700);
    client.pause(60);
    await client.closed;

    // The agent's goodbye hung up through the provider: the call ends completed as any call does.
    const result = await callResult(app, callId);
    expect(result.outcome).toBe('human');
    const status = await eventually(
      async () => {
        const got = await app.request('GET', `/v1/calls/get?call_id=${callId}`, { key: ws.apiKey });
        return got.body[0]?.status === 'completed' && got.body[0];
      },
      30_000,
      'the call completed',
    );
    expect(status.status).toBe('completed');
    const transcript = await app.request('GET', `/v1/calls/${callId}/transcript`, { key: ws.apiKey });
    expect(transcript.body.turns.map((t: { speaker: string; text: string }) => [t.speaker, t.text])).toEqual([
      ['agent', expect.stringMatching(/^Hi, this is Ava calling from /)],
      ['callee', 'No thanks, goodbye.'],
      ['agent', 'Thank you for your time. Goodbye!'],
    ]);
  });
});
