/**
 * A placed call with the REAL embedded engines on the real stack (Postgres, Temporal, the workers, the carrier
 * simulator): the voice process registers them as `npm start`'s does (Silero, Whisper tiny.en, the Piper voice), the
 * agent's defaults name them, and the callee speaks real audio: sentences synthesised by the Piper voice, resampled to
 * the line's 8 kHz, μ-law, 20 ms frames in real time. The agent greets, Whisper hears the callee, the scripted agent
 * answers, and its goodbye hangs the call up through the simulator.
 */
import { ensureVoiceEngines } from '../../src/devstack/voice-engines';
import { resample } from '../../src/voice/audio/resample';
import { embeddedEngines, EMBEDDED_ENGINE_NAMES, type SpeechEngines } from '../../src/voice/engine-registry';
import { loadVoiceEngineSettings } from '../../src/voice/engines/config';
import { startVoice, type RunningVoice } from '../../src/voice/http/main';
import { callingWorkspace } from '../helpers/calls';
import { startTestApp, type TestApp } from '../helpers/stack';
import { TwilioStreamClient } from '../helpers/twilio-stream-client';
import { placeHarnessCall } from '../helpers/voice-calls';
import { eventually } from '../helpers/webhook-receiver';
import { wordErrorRate } from '../voice/wer';

jest.setTimeout(180_000);

/** The callee's side of the conversation, one sentence a turn; the last one ends the call. */
const CALLEE = ['Yes, that works for me.', 'I would like to speak with a human agent, please.', 'No thanks, that is all. Goodbye.'];

let app: TestApp;
let voice: RunningVoice;
let engines: SpeechEngines;
/** Each callee sentence as the line carries it: 8 kHz PCM. */
const lines: Int16Array[] = [];

beforeAll(async () => {
  await ensureVoiceEngines({ say: (line) => process.stderr.write(`[voice engines] ${line}\n`) });
  app = await startTestApp({ workers: true, simulator: true });
  engines = embeddedEngines(loadVoiceEngineSettings({}));
  // The agent's defaults, untouched: they name the embedded engines.
  voice = await startVoice({ ...app.config, VOICE_PORT: 0, VOICE_DRAIN_MS: 0 }, { engines });
  const piper = engines.tts.get(EMBEDDED_ENGINE_NAMES.tts)!;
  for (const text of CALLEE) {
    const parts: Int16Array[] = [];
    let rate = 0;
    for await (const chunk of piper.synthesize(text, { signal: new AbortController().signal })) {
      parts.push(chunk.pcm);
      rate = chunk.sampleRate;
    }
    const whole = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
    parts.reduce((at, p) => (whole.set(p, at), at + p.length), 0);
    lines.push(resample(whole, rate, 8000));
  }
});
afterAll(async () => {
  await voice?.close(); // closes the engines too
  await app?.close();
});

describe('a call with the embedded engines', () => {
  it('the agent greets in synthesised speech, Whisper hears what the callee says, the agent answers each turn and hangs up', async () => {
    const ws = await callingWorkspace(app);
    const { callId, entry, parameters } = await placeHarnessCall(app, ws);

    const client = new TwilioStreamClient(voice.streamUrl, entry.sid, parameters);
    await client.open();
    const session = await eventually(async () => voice.sessions.get(callId), 10_000, 'the session');
    // The greeting: synthesised speech on the line, played to its mark.
    await eventually(async () => client.echoed.includes('0:0'), 30_000, 'the greeting heard');
    expect(client.of('media').length).toBeGreaterThan(50); // > 1 s of audio

    const latencies: number[] = [];
    const ends: number[] = [];
    for (const [i, line] of lines.entries()) {
      await eventually(async () => session.state === 'LISTENING' && client.spoken, 30_000, `the agent listening before turn ${i}`);
      client.speakPcm(line);
      client.pause(1000);
      // Frames go out in real time: once the sentence's length has passed, its last audible frame is sent.
      const sentAt = client.now();
      await eventually(async () => client.now() > sentAt + line.length / 8 + 100, 30_000, `turn ${i} sent`);
      const endAt = client.lastVoicedAt;
      // The end of the callee's speech → the agent's first audio frame after it.
      const first = await eventually(async () => client.of('media').find((r) => r.at > endAt), 30_000, `the agent's answer to turn ${i}`);
      latencies.push(Math.round(first.at - endAt));
      ends.push(Math.round(endAt));
    }
    await client.closed; // the agent's goodbye hung up through the provider
    process.stderr.write(`[voice call] end of callee speech → first agent audio (ms): ${JSON.stringify(latencies)}\n`);
    // Where the time goes, on the session's clock (≈ the client's: both start at the stream's start): the end of
    // speech → THINKING (the turn detector's silence) → SPEAKING (recognition, the model, the first synthesised audio).
    const phases = ends.map((end) => {
      const thinking = session.transitions.find((t) => t.state === 'THINKING' && t.atMs > end)?.atMs ?? NaN;
      const speaking = session.transitions.find((t) => t.state === 'SPEAKING' && t.atMs > thinking)?.atMs ?? NaN;
      return { turnDetectedMs: thinking - end, thenFirstAudioMs: speaking - thinking };
    });
    process.stderr.write(`[voice call] phases ${JSON.stringify(phases)}\n`);

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
    const turns = (transcript.body.turns as { speaker: string; text: string }[]).map((t) => [t.speaker, t.text] as const);
    process.stderr.write(`[voice call] transcript ${JSON.stringify(turns)}\n`);
    expect(turns.map(([speaker]) => speaker)).toEqual(['agent', 'callee', 'agent', 'callee', 'agent', 'callee', 'agent']);
    expect(turns[0]![1]).toMatch(/^Hi, this is Ava calling from /);
    const heard = turns.filter(([speaker]) => speaker === 'callee').map(([, text]) => text);
    const wer = wordErrorRate(CALLEE.join(' '), heard.join(' '));
    process.stderr.write(`[voice call] WER ${wer.toFixed(3)}\n`);
    expect(wer).toBeLessThanOrEqual(0.2);
    // The agent answered every turn, and its last answer was the goodbye that ended the call.
    for (const [, text] of turns.filter(([speaker], i) => speaker === 'agent' && i > 0)) expect(text.length).toBeGreaterThan(0);
    expect(turns[6]![1]).toMatch(/goodbye!$/i);
  });

  it('registers the engines under the names the agent defaults use, with eSpeak NG speaking as local/piper when the Piper voice is missing', () => {
    const names = (e: SpeechEngines) => ({ vad: e.vadName, stt: [...e.stt.keys()], tts: [...e.tts.keys()], speaks: e.tts.get('local/piper')?.name });
    expect(names(engines)).toEqual({ vad: 'local/silero', stt: ['local/whisper-tiny.en'], tts: ['local/piper'], speaks: 'local/piper-joe' });
    expect(names(embeddedEngines(loadVoiceEngineSettings({ VOICE_TTS_MODEL: '/nonexistent/voice.onnx' })))).toMatchObject({
      tts: ['local/piper'],
      speaks: 'local/espeak-ng',
    });
  });
});
