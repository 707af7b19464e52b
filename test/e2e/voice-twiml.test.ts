import { randomBytes, randomUUID } from 'node:crypto';
import { telephonyUrls, voiceStreamUrl } from '../../src/core/config';
import { twilioSignature } from '../../src/telephony/signature';
import { checkStreamCredential } from '../../src/voice/credential';
import { startTestApp, type TestApp } from '../helpers/stack';

jest.setTimeout(60_000);

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ simulator: true });
});
afterAll(() => app.close());

const newSid = () => `CA${randomBytes(16).toString('hex')}`;
const sids = new Map<string, string>();

async function call(workspaceId: string, status = 'in-progress', sid: string | null = newSid()): Promise<string> {
  const id = randomUUID();
  if (sid) sids.set(id, sid);
  await app.db.query(`INSERT INTO calls (id, workspace_id, phone_to, phone_from, status, provider_sid) VALUES ($1, $2, '12125550090', '17145559001', $3, $4)`, [
    id,
    workspaceId,
    status,
    sid,
  ]);
  return id;
}

/** Twilio's answer request: the form it posts to the call's Url, signed over that URL. */
async function answer(query: string, o: { sign?: boolean; token?: string; callSid?: string } = {}) {
  const url = `${telephonyUrls(app.config).voiceAgent}?${query}`;
  const form = new URLSearchParams({
    AccountSid: app.config.TWILIO_ACCOUNT_SID,
    CallSid: o.callSid ?? sids.get(new URLSearchParams(query).get('call_id') ?? '') ?? newSid(),
    CallStatus: 'in-progress',
    From: '+17145559001',
    To: '+12125550090',
  });
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (o.sign !== false) headers['x-twilio-signature'] = twilioSignature(o.token ?? app.config.TWILIO_AUTH_TOKEN, url, form);
  const res = await fetch(`${app.url}/telephony/twilio/voice?${query}`, { method: 'POST', headers, body: form.toString() });
  return { status: res.status, type: res.headers.get('content-type'), body: await res.text() };
}

describe('POST /telephony/twilio/voice', () => {
  it('answers a live call with <Connect><Stream> to the voice processes, its parameters, and a <Redirect> to resume', async () => {
    const ws = await app.newWorkspace();
    const id = await call(ws.workspaceId);
    const res = await answer(`call_id=${id}&transfer_to=%2B18005550100`);
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/^text\/xml/);
    const m =
      /^<\?xml version="1.0" encoding="UTF-8"\?><Response><Connect><Stream url="([^"]+)">(.*)<\/Stream><\/Connect><Redirect method="POST">([^<]+)<\/Redirect><\/Response>$/.exec(
        res.body,
      );
    expect(m).not.toBeNull();
    const [, streamUrl, params, redirect] = m!;
    expect(streamUrl).toBe(voiceStreamUrl(app.config));
    expect(new URL(streamUrl!).search).toBe('');
    const parameters = Object.fromEntries([...params!.matchAll(/<Parameter name="([^"]+)" value="([^"]+)"\/>/g)].map((p) => [p[1], p[2]]));
    expect(Object.keys(parameters)).toEqual(['call_id', 'credential', 'resume']);
    expect(parameters).toMatchObject({ call_id: id, resume: '0' });
    const binding = { callId: id, workspaceId: ws.workspaceId, resume: false };
    expect(checkStreamCredential(app.config.TWILIO_AUTH_TOKEN, binding, parameters.credential).status).toBe('valid');
    expect(checkStreamCredential(app.config.TWILIO_AUTH_TOKEN, binding, parameters.credential, Date.now() + 121_000).status).toBe('expired');
    const back = new URL(redirect!.replace(/&amp;/g, '&'));
    expect(Object.fromEntries(back.searchParams)).toEqual({ call_id: id, transfer_to: '+18005550100', resume: '1' });

    // Twilio follows the redirect when the stream breaks: the next answer says resume.
    const resumed = await answer(back.search.slice(1));
    expect(resumed.body).toContain('<Parameter name="resume" value="1"/>');
    const again = /name="credential" value="([^"]+)"/.exec(resumed.body)![1];
    expect(checkStreamCredential(app.config.TWILIO_AUTH_TOKEN, { ...binding, resume: true }, again).status).toBe('valid');
  });

  it('refuses a missing or wrong signature, or a changed query, with 403', async () => {
    const ws = await app.newWorkspace();
    const id = await call(ws.workspaceId);
    expect((await answer(`call_id=${id}`, { sign: false })).status).toBe(403);
    expect((await answer(`call_id=${id}`, { token: 'not-the-auth-token' })).status).toBe(403);
    // Signed for one call, sent for another.
    const url = `${telephonyUrls(app.config).voiceAgent}?call_id=${id}`;
    const form = new URLSearchParams({ CallSid: sids.get(id)! });
    const other = await call(ws.workspaceId);
    const res = await fetch(`${app.url}/telephony/twilio/voice?call_id=${other}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(app.config.TWILIO_AUTH_TOKEN, url, form) },
      body: form.toString(),
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ status: 'failed', message: 'Invalid or missing X-Twilio-Signature' });
  });

  it('hangs up a call that has ended or whose CallSid is not the one placed; 404 for an unknown call, 400 for a bad id', async () => {
    const ws = await app.newWorkspace();
    const ended = await call(ws.workspaceId, 'completed');
    expect((await answer(`call_id=${ended}`)).body).toBe('<?xml version="1.0" encoding="UTF-8"?><Response><Hangup/></Response>');
    const live = await call(ws.workspaceId);
    expect((await answer(`call_id=${live}`, { callSid: newSid() })).body).toContain('<Hangup/>');
    expect((await answer(`call_id=${randomUUID()}`)).status).toBe(404);
    expect((await answer('call_id=nope')).status).toBe(400);
  });
});
