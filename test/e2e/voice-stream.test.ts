import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { telephonyUrls, voiceStreamUrl } from '../../src/core/config';
import type { TelephonyProvider } from '../../src/telephony/provider';
import { twilioSignature } from '../../src/telephony/signature';
import { streamCredential } from '../../src/voice/credential';
import { callTurns } from '../../src/voice/db/turns';
import { startVoice, type RunningVoice } from '../../src/voice/http/main';
import { clearFrame, inboundMessage, markFrame, mediaFrame, outboundMessage } from '../../src/voice/protocol';
import { dtmfText, REPROMPT_LINE, RESUME_LINE, SILENCE_GOODBYE } from '../../src/voice/session';
import { startTestApp, type TestApp } from '../helpers/stack';
import { TwilioStreamClient } from '../helpers/twilio-stream-client';
import { EnergyVad, ScriptedStt, ToneTts, WideTts } from '../helpers/voice-fakes';
import { pcmFromMulawBase64 } from '../../src/voice/audio/frames';
import { mulawDecode, mulawEncode } from '../../src/voice/audio/mulaw';
import { resample } from '../../src/voice/audio/resample';
import { eventually } from '../helpers/webhook-receiver';
import type { Refusal } from '../../src/voice/http/stream-server';

jest.setTimeout(90_000);

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'twilio-media-streams');

let app: TestApp;
let voice: RunningVoice;
const stt = new ScriptedStt();
const tts = new ToneTts(25);
const wide = new WideTts();
const hungUp: string[] = [];
const refused: Refusal[] = [];
beforeAll(async () => {
  app = await startTestApp({ simulator: true });
  const provider = { hangUpCall: async (sid: string) => void hungUp.push(sid) } as unknown as TelephonyProvider;
  voice = await startVoice(
    { ...app.config, VOICE_PORT: 0, VOICE_DRAIN_MS: 0 },
    {
      engines: {
        vad: new Map([['test/energy', new EnergyVad()]]),
        vadName: 'test/energy',
        stt: new Map([['test/scripted', stt]]),
        tts: new Map<string, ToneTts | WideTts>([
          ['test/tone', tts],
          ['test/wide', wide],
        ]),
      },
      defaults: { endOfSpeechMs: 300, voice: { engine: 'test/tone', voiceId: null }, stt: { engine: 'test/scripted' } },
      provider,
      onRefused: (why) => refused.push(why),
    },
  );
});
afterAll(async () => {
  await voice?.close();
  await app?.close();
});

const newSid = () => `CA${randomBytes(16).toString('hex')}`;

/** A live call of an agent with voice settings, answered as sid. */
async function liveCall(o: { status?: string; agent?: Record<string, unknown> } = {}) {
  const ws = await app.newWorkspace();
  const agentId = randomUUID();
  const a: Record<string, unknown> = {
    first_message: 'Hi {{first_name}}, this is Ava from {{company}}.',
    prompt: 'Confirm the appointment.\nFacts:\n- The clinic opens at nine.',
    ...o.agent,
  };
  await app.db.query(
    'INSERT INTO agents (id, workspace_id, name, first_message, prompt, interruptible, silence_timeout_s) VALUES ($1, $2, $3, $4, $5, $6, $7)',
    [agentId, ws.workspaceId, 'Ava', a.first_message, a.prompt, a.interruptible ?? true, a.silence_timeout_s ?? 30],
  );
  const leadId = randomUUID();
  await app.db.query("INSERT INTO leads (id, workspace_id, phone, first_name, company) VALUES ($1, $2, '12125550090', 'Jane', 'Acme Dental')", [
    leadId,
    ws.workspaceId,
  ]);
  const id = randomUUID();
  const sid = newSid();
  await app.db.query(
    `INSERT INTO calls (id, workspace_id, agent_id, lead_id, phone_to, phone_from, status, provider_sid) VALUES ($1, $2, $3, $4, '12125550090', '17145559001', $5, $6)`,
    [id, ws.workspaceId, agentId, leadId, o.status ?? 'in-progress', sid],
  );
  return { id, sid, workspaceId: ws.workspaceId, apiKey: ws.apiKey };
}

/** The TwiML answer's stream parameters, fetched as Twilio fetches them. */
async function twimlParameters(callId: string, sid: string, resume = false): Promise<Record<string, string>> {
  const query = `call_id=${callId}${resume ? '&resume=1' : ''}`;
  const url = `${telephonyUrls(app.config).voiceAgent}?${query}`;
  const form = new URLSearchParams({ CallSid: sid, AccountSid: app.config.TWILIO_ACCOUNT_SID });
  const res = await fetch(`${app.url}/telephony/twilio/voice?${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(app.config.TWILIO_AUTH_TOKEN, url, form) },
    body: form.toString(),
  });
  const xml = await res.text();
  return Object.fromEntries([...xml.matchAll(/<Parameter name="([^"]+)" value="([^"]+)"\/>/g)].map((m) => [m[1]!, m[2]!]));
}

const turnsOf = (call: { id: string; workspaceId: string }) => callTurns(app.db, call.workspaceId, call.id);

describe('Media Streams messages against Twilio’s documented shapes', () => {
  const fixtures = readdirSync(FIXTURES).map((f) => ({ file: f, ...JSON.parse(readFileSync(path.join(FIXTURES, f), 'utf8')) }));
  it.each(fixtures.filter((f) => f.direction === 'from_twilio').map((f) => [f.file, f.message]))('accepts %s', (_file, message) => {
    expect(inboundMessage.safeParse(message).success).toBe(true);
  });
  it.each(fixtures.filter((f) => f.direction === 'to_twilio').map((f) => [f.file, f.message]))('what we send matches %s', (_file, message) => {
    expect(outboundMessage.safeParse(message).success).toBe(true);
    // Our builders write exactly the documented message.
    const m = message as { event: string; streamSid: string; media?: { payload: string }; mark?: { name: string } };
    const built =
      m.event === 'media'
        ? mediaFrame(m.streamSid, Buffer.from(m.media!.payload, 'base64'))
        : m.event === 'mark'
          ? markFrame(m.streamSid, m.mark!.name)
          : clearFrame(m.streamSid);
    expect(JSON.parse(built)).toEqual(message);
    expect(outboundMessage.safeParse({ ...m, extra: 1 }).success).toBe(false);
  });
});

describe('stream authentication', () => {
  const expectRefused = async (client: TwilioStreamClient, why: Refusal) => {
    await client.closed;
    expect(client.closeCode).toBe(1008);
    expect(client.closeReason).toBe(why);
    expect(client.received).toEqual([]);
  };

  it('refuses a tampered, foreign or expired credential, an unknown or ended call, another CallSid, a wrong format', async () => {
    const call = await liveCall();
    const params = await twimlParameters(call.id, call.sid);
    const other = await liveCall();
    const cases: [Record<string, string>, string, Refusal, Record<string, unknown>?][] = [
      [{ ...params, credential: params.credential!.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')) }, call.sid, 'bad_credential'],
      [{ ...params, call_id: other.id }, other.sid, 'bad_credential'],
      [{ ...params, resume: '1' }, call.sid, 'bad_credential'],
      [
        { ...params, credential: streamCredential(app.config.TWILIO_AUTH_TOKEN, { callId: call.id, workspaceId: call.workspaceId, resume: false }, -5) },
        call.sid,
        'expired_credential',
      ],
      [{ ...params, call_id: randomUUID() }, call.sid, 'unknown_call'],
      [{ call_id: call.id }, call.sid, 'bad_parameters'],
      [params, newSid(), 'wrong_call_sid'],
      [params, call.sid, 'bad_format', { encoding: 'audio/l16', sampleRate: 16000, channels: 1 }],
    ];
    for (const [p, sid, why, format] of cases) {
      const client = new TwilioStreamClient(voice.streamUrl, sid, p);
      await client.open({ mediaFormat: format });
      await expectRefused(client, why);
    }
    const ended = await liveCall({ status: 'completed' });
    const endedParams = {
      call_id: ended.id,
      resume: '0',
      credential: streamCredential(app.config.TWILIO_AUTH_TOKEN, { callId: ended.id, workspaceId: ended.workspaceId, resume: false }, 60),
    };
    const late = new TwilioStreamClient(voice.streamUrl, ended.sid, endedParams);
    await late.open();
    await expectRefused(late, 'call_ended');
  });

  it('refuses a wrong handshake signature (403), and a second stream for a call that has one, even after it closed', async () => {
    const call = await liveCall();
    const params = await twimlParameters(call.id, call.sid);
    const forged = new TwilioStreamClient(voice.streamUrl, call.sid, params, { 'x-twilio-signature': 'bm90IGEgc2lnbmF0dXJl' });
    await expect(forged.open()).rejects.toThrow(/handshake answered 403/);
    // Twilio signs the handshake over the stream URL the TwiML gave it.
    const signed = twilioSignature(app.config.TWILIO_AUTH_TOKEN, voiceStreamUrl(app.config), {});
    const first = new TwilioStreamClient(voice.streamUrl, call.sid, params, { 'x-twilio-signature': signed });
    await first.open();
    await eventually(async () => first.of('media').length > 0, 10_000, 'the greeting');
    const second = new TwilioStreamClient(voice.streamUrl, call.sid, params);
    await second.open();
    await expectRefused(second, 'stream_exists');
    // A fresh answer (not a resume) for the same call does not take it either.
    const again = new TwilioStreamClient(voice.streamUrl, call.sid, await twimlParameters(call.id, call.sid));
    await again.open();
    await expectRefused(again, 'stream_exists');
    first.close();
    await first.closed;
    const replay = new TwilioStreamClient(voice.streamUrl, call.sid, params);
    await replay.open();
    await expectRefused(replay, 'stream_exists');
  });
});

describe('a conversation', () => {
  it('greets, takes a turn, is barged in on, hears DTMF, ignores a cough, and ends on the end phrase through the provider', async () => {
    const call = await liveCall();
    const client = new TwilioStreamClient(voice.streamUrl, call.sid, await twimlParameters(call.id, call.sid));
    await client.open();
    // The greeting, rendered from the agent's first_message with the lead's fields, heard in full.
    await eventually(async () => client.echoed.includes('0:0'), 15_000, 'the greeting heard');
    expect(tts.spoken).toContain('Hi Jane, this is Ava from Acme Dental.');
    const frames = client.of('media');
    for (const f of frames) expect(Buffer.from(f.msg.media.payload, 'base64')).toHaveLength(160);
    // Paced: the greeting's ~1 s of audio arrived over ~1 s, not in a burst.
    expect(frames[frames.length - 1]!.at - frames[0]!.at).toBeGreaterThan((frames.length - 5) * 20 * 0.8);
    expect((await turnsOf(call))[0]).toMatchObject({ index: 0, speaker: 'agent', text: 'Hi Jane, this is Ava from Acme Dental.', interrupted: false });

    // The callee answers; the scripted model confirms.
    stt.script.push('When do you open?');
    client.speak(800);
    client.pause(100);
    await eventually(
      async () => (await turnsOf(call)).find((t) => t.index === 2 && t.speaker === 'agent' && !t.interrupted && client.echoed.includes('2:0')),
      15_000,
      'the answer',
    );
    const turns = await turnsOf(call);
    expect(turns[1]).toMatchObject({ speaker: 'callee', text: 'When do you open?' });
    expect(turns[1]!.endMs - turns[1]!.startMs).toBeGreaterThan(600);
    expect(turns[2]!.text).toBe('The clinic opens at nine.');

    // A cough (100 ms) while the agent talks takes nothing.
    stt.script.push('Yes, that works.');
    client.speak(800);
    await eventually(async () => tts.spoken.includes('Great, you are all set.') && client.of('media').length, 15_000, 'the confirmation starts');
    const clearsBefore = client.of('clear').length;
    client.pause(60);
    client.speak(100);
    await new Promise((r) => setTimeout(r, 400));
    expect(client.of('clear').length).toBe(clearsBefore);

    // Barge-in: the callee talks over the agent: clear, and the turn keeps only what was heard.
    stt.script.push('Sorry, one more thing.');
    client.speak(600);
    client.pause(60);
    await eventually(async () => client.of('clear').length > clearsBefore, 10_000, 'clear');
    const interrupted = await eventually(async () => (await turnsOf(call)).find((t) => t.index === 4 && t.interrupted), 10_000, 'the interrupted turn');
    expect('Great, you are all set. Is there anything else I can help with?'.startsWith(interrupted.text)).toBe(true);
    expect(interrupted.text).not.toContain('anything else');
    // Nothing of the interrupted turn is sent after the clear: the next audio is the next answer's.
    const clearAt = client.of('clear').at(-1)!.at;
    const marksAfter = client.received.filter((r) => r.at > clearAt && r.msg.event === 'mark').map((r) => r.msg.mark.name as string);
    expect(marksAfter.every((n) => !n.startsWith('4:'))).toBe(true);
    const session = voice.sessions.get(call.id)!;
    expect(session.transitions.map((t) => t.state)).toEqual(expect.arrayContaining(['SPEAKING', 'USER_SPEAKING', 'THINKING', 'LISTENING']));
    await eventually(
      async () => (await turnsOf(call)).find((t) => t.index === 5 && t.text === 'Sorry, one more thing.'),
      10_000,
      'the turn after the barge-in',
    );
    await eventually(async () => session.state === 'LISTENING', 15_000, 'listening again');

    // DTMF reaches the turn as text.
    client.dtmf('4');
    client.dtmf('2');
    await eventually(async () => (await turnsOf(call)).find((t) => t.speaker === 'callee' && t.text === dtmfText('42')), 10_000, 'the keypad turn');
    await eventually(async () => tts.spoken.some((s) => s.startsWith('You pressed 42.')) && session.state === 'LISTENING', 15_000, 'the keypad answer');

    // The end phrase ends the call through the provider, once heard.
    stt.script.push('No, that is all. Goodbye.');
    client.speak(700);
    client.pause(60);
    await client.closed;
    expect(hungUp).toContain(call.sid);
    const last = (await turnsOf(call)).at(-1)!;
    expect(last).toMatchObject({ speaker: 'agent', text: 'Thank you for your time. Goodbye!', interrupted: false });
    // Every transition is timestamped, in order.
    const at = session.transitions.map((t) => t.atMs);
    expect([...at].sort((x, y) => x - y)).toEqual(at);
  });

  it('speech at another rate reaches the line at 8 kHz through one resampler per utterance: the same samples as the whole clip resampled', async () => {
    const call = await liveCall();
    await app.db.query(`UPDATE agents SET voice = '{"engine": "test/wide"}' WHERE id = (SELECT agent_id FROM calls WHERE id = $1)`, [call.id]);
    const client = new TwilioStreamClient(voice.streamUrl, call.sid, await twimlParameters(call.id, call.sid));
    await client.open();
    await eventually(async () => client.echoed.includes('0:0'), 15_000, 'the greeting heard');
    const parts = client.of('media').map((r) => pcmFromMulawBase64(r.msg.media.payload));
    const heard = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
    parts.reduce((at, p) => (heard.set(p, at), at + p.length), 0);
    // 0.6 s at 22.05 kHz in 997-sample chunks: 4800 samples on the line (the last frame padded with silence), each
    // the whole clip's, so no chunk join clicks.
    const expected = mulawDecode(mulawEncode(resample(wide.audio, WideTts.RATE, 8000)));
    expect(expected).toHaveLength(4800);
    expect(heard.length).toBe(Math.ceil(expected.length / 160) * 160);
    expect(Array.from(heard.subarray(0, expected.length))).toEqual(Array.from(expected));
    client.stop();
    await client.closed;
  });

  it('a silent callee gets one reprompt, then the call ends through the provider (silence_timeout)', async () => {
    const call = await liveCall({ agent: { silence_timeout_s: 1 } });
    const client = new TwilioStreamClient(voice.streamUrl, call.sid, await twimlParameters(call.id, call.sid));
    await client.open();
    await client.closed;
    expect(hungUp).toContain(call.sid);
    expect((await turnsOf(call)).map((t) => [t.speaker, t.text])).toEqual([
      ['agent', 'Hi Jane, this is Ava from Acme Dental.'],
      ['agent', REPROMPT_LINE],
      ['agent', SILENCE_GOODBYE],
    ]);
    await eventually(
      async () =>
        (await app.db.one<{ ended_reason: string | null }>('SELECT ended_reason FROM call_streams WHERE call_id = $1', [call.id]))?.ended_reason ===
        'silence_timeout',
      5_000,
      'the stream closed as silence_timeout',
    );
    // A stream the agent ended on purpose is not resumed.
    const again = new TwilioStreamClient(voice.streamUrl, call.sid, await twimlParameters(call.id, call.sid, true));
    await again.open();
    await again.closed;
    expect([again.closeCode, again.closeReason, again.received]).toEqual([1008, 'stream_exists', []]);
  });

  it('a resumed stream goes on from the stored turns, never doubling one', async () => {
    const call = await liveCall();
    const first = new TwilioStreamClient(voice.streamUrl, call.sid, await twimlParameters(call.id, call.sid));
    await first.open();
    await eventually(async () => first.echoed.includes('0:0'), 15_000, 'the greeting heard');
    first.close();
    await first.closed;
    const resumed = new TwilioStreamClient(voice.streamUrl, call.sid, await twimlParameters(call.id, call.sid, true));
    await resumed.open();
    await eventually(async () => resumed.echoed.includes('1:0'), 15_000, 'the resume line heard');
    const turns = await turnsOf(call);
    expect(turns.map((t) => [t.index, t.text])).toEqual([
      [0, 'Hi Jane, this is Ava from Acme Dental.'],
      [1, RESUME_LINE],
    ]);
    // The transcript endpoint shows the turns; another workspace's key gets 404.
    const res = await app.request('GET', `/v1/calls/${call.id}/transcript`, { key: call.apiKey });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      call_id: call.id,
      turns: [
        {
          index: 0,
          speaker: 'agent',
          text: 'Hi Jane, this is Ava from Acme Dental.',
          start_ms: expect.any(Number),
          end_ms: expect.any(Number),
          interrupted: false,
        },
        { index: 1, speaker: 'agent', text: RESUME_LINE, start_ms: expect.any(Number), end_ms: expect.any(Number), interrupted: false },
      ],
    });
    expect(res.body.turns[1].start_ms).toBeGreaterThanOrEqual(res.body.turns[0].end_ms);
    const stranger = await app.newWorkspace();
    expect(await app.request('GET', `/v1/calls/${call.id}/transcript`, { key: stranger.apiKey })).toMatchObject({
      status: 404,
      body: { status: 'failed', message: 'Call not found' },
    });
    expect((await app.request('GET', '/v1/calls/nope/transcript', { key: call.apiKey })).status).toBe(404);
    resumed.stop();
    await resumed.closed;
  });
});
