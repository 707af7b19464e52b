import { checkStreamCredential, streamCredential } from '../../src/voice/credential';
import { connectStreamTwiml, escapeXml, twimlDocument } from '../../src/voice/twiml';

const CALL = '0b6f5a52-7d1c-4d55-9a7e-6a2f0f1f3c11';

describe('TwiML', () => {
  it('escapes the five XML specials and drops characters XML cannot carry', () => {
    expect(escapeXml(`a&b<c>d"e'f\u0001g`)).toBe('a&amp;b&lt;c&gt;d&quot;e&apos;fg');
  });

  it('a value cannot close its attribute or inject an element', () => {
    const doc = twimlDocument([{ name: 'Say', attributes: { voice: '"/><Hangup/><Say x="' }, children: ['</Say><Dial>+15551234567</Dial>'] }]);
    expect(doc).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Say voice="&quot;/&gt;&lt;Hangup/&gt;&lt;Say x=&quot;">&lt;/Say&gt;&lt;Dial&gt;+15551234567&lt;/Dial&gt;</Say></Response>',
    );
    expect(() => twimlDocument([{ name: 'Say onload', children: [] }])).toThrow(/element name/);
  });

  it('connects a bidirectional stream with the parameters, then redirects back for resumption', () => {
    const xml = connectStreamTwiml({
      streamUrl: 'wss://voice.example.com/telephony/twilio/stream',
      parameters: { call_id: CALL, credential: '123.abc', resume: '0' },
      redirectUrl: `https://api.example.com/telephony/twilio/voice?call_id=${CALL}&resume=1`,
    });
    expect(xml).toBe(
      '<?xml version="1.0" encoding="UTF-8"?><Response><Connect><Stream url="wss://voice.example.com/telephony/twilio/stream">' +
        `<Parameter name="call_id" value="${CALL}"/><Parameter name="credential" value="123.abc"/><Parameter name="resume" value="0"/>` +
        `</Stream></Connect><Redirect method="POST">https://api.example.com/telephony/twilio/voice?call_id=${CALL}&amp;resume=1</Redirect></Response>`,
    );
  });

  it('refuses a stream URL with a query string (Twilio error 31920)', () => {
    expect(() =>
      connectStreamTwiml({ streamUrl: 'wss://v.example.com/s?call=1', parameters: { call_id: CALL, credential: 'x', resume: '0' }, redirectUrl: 'https://a/' }),
    ).toThrow(/query string/);
  });
});

describe('stream credential', () => {
  const token = 'simulator-auth-token';
  const binding = { callId: CALL, workspaceId: 'f5c0e7a4-3d0b-4f43-a6b6-3f1e0c6b2a10', resume: false };
  it('is valid for its call until it expires, and names its nonce (new for every credential)', () => {
    const now = 1_800_000_000_000;
    const c = streamCredential(token, binding, 60, now);
    const valid = checkStreamCredential(token, binding, c, now);
    expect(valid).toEqual({ status: 'valid', nonce: c.split('.')[1] });
    expect(checkStreamCredential(token, binding, c, now + 60_000).status).toBe('valid');
    expect(checkStreamCredential(token, binding, c, now + 61_000).status).toBe('expired');
    expect(streamCredential(token, binding, 60, now)).not.toBe(c);
  });

  it('is refused for another call, workspace or resume flag, another key, a changed expiry or garbage', () => {
    const now = Date.now();
    const c = streamCredential(token, binding, 60, now);
    expect(checkStreamCredential(token, { ...binding, callId: CALL.replace('0b6f', '1b6f') }, c, now).status).toBe('invalid');
    expect(checkStreamCredential(token, { ...binding, workspaceId: CALL }, c, now).status).toBe('invalid');
    expect(checkStreamCredential(token, { ...binding, resume: true }, c, now).status).toBe('invalid');
    expect(checkStreamCredential('another-auth-token', binding, c, now).status).toBe('invalid');
    const [exp, nonce, mac] = c.split('.');
    expect(checkStreamCredential(token, binding, `${Number(exp) + 3600}.${nonce}.${mac}`, now).status).toBe('invalid');
    for (const bad of [undefined, '', 'x', `${exp}.${nonce}.`, `${c}x`]) expect(checkStreamCredential(token, binding, bad, now).status).toBe('invalid');
  });
});
