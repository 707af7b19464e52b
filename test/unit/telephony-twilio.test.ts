import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { TelephonyError } from '../../src/telephony/errors';
import type { PlaceCallRequest } from '../../src/telephony/provider';
import { CALL_ID_HEADER, createTwilioProvider } from '../../src/telephony/twilio';
import { callsCreateValidator, callsReadValidator } from '../helpers/twilio-schema';

const ACCOUNT = 'AC0123456789abcdef0123456789abcdef';
const TOKEN = 'a-test-auth-token';
const SID = 'CAaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';

interface Seen {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}
type Reply = { status: number; body: string; headers?: Record<string, string> };

/** A local stand-in for api.twilio.com: records each request and answers with the next scripted reply. */
async function fakeTwilio(replies: Reply[]) {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, path: req.url!, headers: req.headers, body });
      const reply = replies.shift() ?? { status: 500, body: '{}' };
      res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
      res.end(reply.body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, seen, close: () => new Promise<void>((r) => server.close(() => r())) };
}

const request: PlaceCallRequest = {
  callId: '5b0f1f8e-5d0e-4a8e-9a44-1d2b3c4d5e6f',
  to: '+17145550001',
  from: '+17145550100',
  voiceAgentUrl: 'https://agents.example.com/voice/agt_1?lang=en',
  statusCallbackUrl: 'https://api.example.com/hooks/telephony/status?call_id=5b0f1f8e-5d0e-4a8e-9a44-1d2b3c4d5e6f',
  machineDetection: 'DetectMessageEnd',
  transferTo: '+17145550199',
};
const created = { status: 201, body: JSON.stringify({ sid: SID, status: 'queued' }) };

describe('the Twilio Calls API client', () => {
  const validate = callsCreateValidator();

  it("places a call with a request Twilio's API description accepts, Basic auth and the call id header", async () => {
    const fake = await fakeTwilio([created]);
    try {
      const provider = createTwilioProvider({ baseUrl: fake.url, accountSid: ACCOUNT, authToken: TOKEN });
      expect(await provider.placeCall(request)).toEqual({ providerCallId: SID });
      const [sent] = fake.seen;
      expect(validate({ method: sent!.method, path: sent!.path, contentType: sent!.headers['content-type'], body: sent!.body })).toEqual([]);
      expect(sent!.path).toBe(`/2010-04-01/Accounts/${ACCOUNT}/Calls.json`);
      expect(sent!.headers.authorization).toBe(`Basic ${Buffer.from(`${ACCOUNT}:${TOKEN}`).toString('base64')}`);
      expect(sent!.headers[CALL_ID_HEADER]).toBe(request.callId);
      const form = new URLSearchParams(sent!.body);
      expect(form.get('To')).toBe('+17145550001');
      expect(form.get('From')).toBe('+17145550100');
      expect(form.get('Url')).toBe('https://agents.example.com/voice/agt_1?lang=en&transfer_to=%2B17145550199');
      expect(form.get('StatusCallback')).toBe(request.statusCallbackUrl);
      expect(form.get('StatusCallbackMethod')).toBe('POST');
      expect(form.getAll('StatusCallbackEvent')).toEqual(['initiated', 'ringing', 'answered', 'completed']);
      expect(form.get('MachineDetection')).toBe('DetectMessageEnd');
    } finally {
      await fake.close();
    }
  });

  it('leaves MachineDetection and transfer_to out when not asked for, still a valid request', async () => {
    const fake = await fakeTwilio([created]);
    try {
      const provider = createTwilioProvider({ baseUrl: `${fake.url}/`, accountSid: ACCOUNT, authToken: TOKEN });
      await provider.placeCall({ ...request, machineDetection: 'off', transferTo: undefined });
      const [sent] = fake.seen;
      expect(validate({ method: sent!.method, path: sent!.path, contentType: sent!.headers['content-type'], body: sent!.body })).toEqual([]);
      const form = new URLSearchParams(sent!.body);
      expect(form.has('MachineDetection')).toBe(false);
      expect(form.get('Url')).toBe(request.voiceAgentUrl);
    } finally {
      await fake.close();
    }
  });

  it('the schema check catches a field Twilio does not define (it can fail)', () => {
    const body = new URLSearchParams({ To: '+17145550001', From: '+17145550100', Url: 'https://a.example/v', TransferTo: '+1' }).toString();
    const problems = validate({ method: 'POST', path: `/2010-04-01/Accounts/${ACCOUNT}/Calls.json`, contentType: 'application/x-www-form-urlencoded', body });
    expect(problems.join('\n')).toMatch(/additionalProperty.*TransferTo/);
    expect(validate({ method: 'POST', path: '/2010-04-01/Accounts/ACnope/Calls.json', contentType: 'application/json', body: 'From=x' })).toHaveLength(4);
  });

  it('cancels and hangs up with a Status update on the call resource', async () => {
    const fake = await fakeTwilio([created, created]);
    try {
      const provider = createTwilioProvider({ baseUrl: fake.url, accountSid: ACCOUNT, authToken: TOKEN });
      await provider.cancelCall(SID);
      await provider.hangUpCall(SID);
      expect(fake.seen.map((s) => [s.method, s.path, s.headers['content-type'], s.body])).toEqual([
        ['POST', `/2010-04-01/Accounts/${ACCOUNT}/Calls/${SID}.json`, 'application/x-www-form-urlencoded', 'Status=canceled'],
        ['POST', `/2010-04-01/Accounts/${ACCOUNT}/Calls/${SID}.json`, 'application/x-www-form-urlencoded', 'Status=completed'],
      ]);
    } finally {
      await fake.close();
    }
  });

  // Twilio's own example of a fetched call (its description's `fetch` example), trimmed to what varies here.
  const resource = (sid: string, extra: Record<string, unknown> = {}) => ({
    sid,
    account_sid: ACCOUNT,
    parent_call_sid: null,
    to: '+17145550001',
    from: '+17145550100',
    status: 'completed',
    answered_by: 'machine_end_beep',
    direction: 'outbound-api',
    date_created: 'Fri, 18 Oct 2019 17:00:00 +0000',
    start_time: 'Fri, 18 Oct 2019 17:00:01 +0000',
    end_time: 'Fri, 18 Oct 2019 17:03:00 +0000',
    duration: '4',
    ...extra,
  });

  it("reads a call and lists child calls or calls between two numbers, with requests Twilio's description accepts", async () => {
    const read = callsReadValidator();
    const LEG = 'CAbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
    const leg = resource(LEG, { parent_call_sid: SID, status: 'in-progress', answered_by: null, end_time: null, duration: null, direction: 'outbound-dial' });
    const fake = await fakeTwilio([
      { status: 200, body: JSON.stringify(resource(SID)) },
      { status: 200, body: JSON.stringify({ calls: [leg], page: 0, page_size: 50, start: 0, end: 0 }) },
      { status: 200, body: JSON.stringify({ calls: [], page: 0, page_size: 50, start: 0, end: 0 }) },
    ]);
    try {
      const provider = createTwilioProvider({ baseUrl: fake.url, accountSid: ACCOUNT, authToken: TOKEN });
      expect(await provider.fetchCall(SID)).toEqual({
        sid: SID,
        parentCallSid: null,
        status: 'completed',
        answeredBy: 'machine_end_beep',
        durationSeconds: 4,
        from: '+17145550100',
        to: '+17145550001',
        createdAt: '2019-10-18T17:00:00.000Z',
        endedAt: '2019-10-18T17:03:00.000Z',
      });
      expect(await provider.listCalls({ parentCallSid: SID })).toEqual([
        expect.objectContaining({ sid: LEG, parentCallSid: SID, status: 'in-progress', endedAt: null }),
      ]);
      expect(await provider.listCalls({ to: '+17145550001', from: '+17145550100' })).toEqual([]);
      expect(fake.seen.map((s) => [s.method, s.path, s.headers.authorization])).toEqual([
        ['GET', `/2010-04-01/Accounts/${ACCOUNT}/Calls/${SID}.json`, expect.stringMatching(/^Basic /)],
        ['GET', `/2010-04-01/Accounts/${ACCOUNT}/Calls.json?ParentCallSid=${SID}&PageSize=50`, expect.stringMatching(/^Basic /)],
        ['GET', `/2010-04-01/Accounts/${ACCOUNT}/Calls.json?To=%2B17145550001&From=%2B17145550100&PageSize=50`, expect.stringMatching(/^Basic /)],
      ]);
      expect(fake.seen.flatMap((s) => read.request(s))).toEqual([]);
    } finally {
      await fake.close();
    }
  });

  it('the read checks can fail: an undefined parameter, a bad sid, a body that is not a call', () => {
    const read = callsReadValidator();
    expect(read.request({ method: 'GET', path: `/2010-04-01/Accounts/${ACCOUNT}/Calls.json?CallId=x&ParentCallSid=CA1` })).toHaveLength(2);
    expect(read.request({ method: 'POST', path: `/2010-04-01/Accounts/${ACCOUNT}/Calls/nope.json` })).toHaveLength(2);
    expect(read.response(`/2010-04-01/Accounts/${ACCOUNT}/Calls/${SID}.json`, resource(SID, { status: 'exploded' }))).toHaveLength(1);
  });

  it('a call the provider does not know is a non-retryable not-found; a body without a call is a bad response', async () => {
    const fake = await fakeTwilio([
      { status: 404, body: twilioError(404, 20404, 'not found') },
      { status: 200, body: '{"calls":[{"sid":"x"}]}' },
    ]);
    try {
      const provider = createTwilioProvider({ baseUrl: fake.url, accountSid: ACCOUNT, authToken: TOKEN });
      await expect(provider.fetchCall(SID)).rejects.toMatchObject({ code: 'provider_call_not_found', retryable: false });
      await expect(provider.listCalls({ parentCallSid: SID })).rejects.toMatchObject({ code: 'provider_bad_response', retryable: false });
    } finally {
      await fake.close();
    }
  });

  const failure = async (reply: Reply): Promise<TelephonyError> => {
    const fake = await fakeTwilio([reply]);
    try {
      const provider = createTwilioProvider({ baseUrl: fake.url, accountSid: ACCOUNT, authToken: TOKEN });
      const err = await provider.placeCall(request).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(TelephonyError);
      return err as TelephonyError;
    } finally {
      await fake.close();
    }
  };
  const twilioError = (status: number, code: number, message: string) => JSON.stringify({ code, message, status, more_info: '' });

  it.each([
    [400, 'provider_rejected'],
    [401, 'provider_auth_failed'],
    [403, 'provider_auth_failed'],
    [404, 'provider_call_not_found'],
    [422, 'provider_rejected'],
  ])('a %i is a non-retryable %s carrying Twilio’s message', async (status, code) => {
    const err = await failure({ status, body: twilioError(status, 21211, "Invalid 'To' Phone Number") });
    expect(err).toMatchObject({ code, retryable: false, httpStatus: status });
    expect(err.message).toContain("Invalid 'To' Phone Number (code 21211)");
  });

  it('a 429 is retryable and carries Retry-After', async () => {
    const err = await failure({ status: 429, body: twilioError(429, 20429, 'Too Many Requests'), headers: { 'retry-after': '7' } });
    expect(err).toMatchObject({ code: 'provider_rate_limited', retryable: true, retryAfterMs: 7000 });
  });

  it('a 5xx is retryable, with Retry-After when given and without when not', async () => {
    expect(await failure({ status: 503, body: 'upstream down', headers: { 'retry-after': '2' } })).toMatchObject({
      code: 'provider_unavailable',
      retryable: true,
      retryAfterMs: 2000,
    });
    expect(await failure({ status: 500, body: '' })).toMatchObject({ code: 'provider_unavailable', retryable: true, retryAfterMs: null });
  });

  it('a 2xx without a call sid is a non-retryable bad response', async () => {
    expect(await failure({ status: 201, body: '{"status":"queued"}' })).toMatchObject({ code: 'provider_bad_response', retryable: false });
    expect(await failure({ status: 201, body: '<html>' })).toMatchObject({ code: 'provider_bad_response', retryable: false });
  });

  it('an unreachable provider is retryable', async () => {
    const fake = await fakeTwilio([]);
    await fake.close();
    const provider = createTwilioProvider({ baseUrl: fake.url, accountSid: ACCOUNT, authToken: TOKEN });
    await expect(provider.placeCall(request)).rejects.toMatchObject({ code: 'provider_unavailable', retryable: true });
  });
});

describe("the check against Twilio's API description", () => {
  it('fails loudly, never skips, when the description is absent', () => {
    const before = process.env.SWITCHBOARD_SHARED_DIR;
    process.env.SWITCHBOARD_SHARED_DIR = '/nonexistent/shared';
    try {
      expect(() => callsCreateValidator()).toThrow(/Twilio's API description is missing at \/nonexistent\/shared\/vendor-apis\/twilio.json/);
    } finally {
      if (before === undefined) delete process.env.SWITCHBOARD_SHARED_DIR;
      else process.env.SWITCHBOARD_SHARED_DIR = before;
    }
  });
});
