import { z } from 'zod';
import { errorForStatus, TelephonyError } from './errors';
import type { CallListFilter, PlaceCallRequest, PlacedCall, ProviderCall, TelephonyProvider } from './provider';
import { callListSchema, callResourceSchema, providerCallOf } from './twilio-resources';

/** Header the simulator dedupes placements on; Twilio ignores it (see TelephonyProvider.idempotentPlacement). */
export const CALL_ID_HEADER = 'x-switchboard-call-id';

/** Where and as whom to reach Twilio's Programmable Voice API (or the simulator speaking it). */
export interface TwilioOptions {
  baseUrl: string;
  accountSid: string;
  authToken: string;
  /** Per-request timeout; a timeout is a retryable provider_unavailable. */
  timeoutMs?: number;
  /** Whether the far end honours CALL_ID_HEADER (true for the simulator). */
  idempotentPlacement?: boolean;
}

const e164 = z.string().regex(/^\+[1-9]\d{6,14}$/, 'must be an E.164 phone number (+17145550001)');
const placeCallRequest = z.object({
  callId: z.string().min(1).max(200),
  to: e164,
  from: e164,
  voiceAgentUrl: z.url({ protocol: /^https?$/ }),
  statusCallbackUrl: z.url({ protocol: /^https?$/ }),
  machineDetection: z.enum(['off', 'Enable', 'DetectMessageEnd']),
  transferTo: e164.optional(),
});

const callResource = z.object({ sid: z.string().regex(/^CA[0-9a-fA-F]{32}$/) });
/** How many recent calls between two numbers a lookup reads (Twilio lists newest first). */
const LOOKUP_PAGE_SIZE = 50;

/** The voice-agent URL of one call: its call id in the query (the signature covers it; Twilio echoes nothing of ours). */
export function voiceAgentUrlForCall(voiceAgentUrl: string, callId: string): string {
  const url = new URL(voiceAgentUrl);
  url.searchParams.set('call_id', callId);
  return url.toString();
}

/** The voice-agent URL with the transfer number the agent may dial (read by the voice agent and the simulator). */
function voiceAgentUrlWith(request: Pick<PlaceCallRequest, 'voiceAgentUrl' | 'transferTo'>): string {
  if (!request.transferTo) return request.voiceAgentUrl;
  const url = new URL(request.voiceAgentUrl);
  url.searchParams.set('transfer_to', request.transferTo);
  return url.toString();
}

/** The Calls.json create form for a placement (Twilio's field names). */
function createCallForm(request: PlaceCallRequest): URLSearchParams {
  const form = new URLSearchParams({ To: request.to, From: request.from, Url: voiceAgentUrlWith(request), Method: 'POST' });
  form.set('StatusCallback', request.statusCallbackUrl);
  form.set('StatusCallbackMethod', 'POST');
  for (const event of ['initiated', 'ringing', 'answered', 'completed']) form.append('StatusCallbackEvent', event);
  if (request.machineDetection !== 'off') form.set('MachineDetection', request.machineDetection);
  return form;
}

/** A TelephonyProvider speaking Twilio's Calls API: form-encoded POSTs with HTTP Basic auth (AccountSid:AuthToken). */
export function createTwilioProvider(options: TwilioOptions): TelephonyProvider {
  const base = options.baseUrl.replace(/\/+$/, '');
  const callsUrl = `${base}/2010-04-01/Accounts/${encodeURIComponent(options.accountSid)}/Calls`;
  const auth = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}`;

  /** A POST with a form, or a GET without one. */
  async function send(url: string, form?: URLSearchParams, headers: Record<string, string> = {}): Promise<unknown> {
    let res: Response;
    try {
      res = await fetch(url, {
        method: form ? 'POST' : 'GET',
        headers: { authorization: auth, accept: 'application/json', ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}), ...headers },
        body: form?.toString(),
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
    } catch (err) {
      throw new TelephonyError('provider_unavailable', `provider unreachable: ${(err as Error).message}`, true);
    }
    const text = await res.text().catch(() => '');
    if (!res.ok) {
      let detail = text.slice(0, 300);
      try {
        const body = JSON.parse(text) as { message?: unknown; code?: unknown };
        if (typeof body.message === 'string') detail = body.code ? `${body.message} (code ${String(body.code)})` : body.message;
      } catch {
        // not JSON: keep the raw text
      }
      throw errorForStatus(res.status, detail, res.headers.get('retry-after'));
    }
    try {
      return JSON.parse(text);
    } catch {
      throw new TelephonyError('provider_bad_response', 'provider answered with a body that is not JSON', false, null, res.status);
    }
  }

  const update = async (providerCallId: string, status: 'canceled' | 'completed') => {
    // https://www.twilio.com/docs/voice/api/call-resource#update-a-call-resource
    await send(`${callsUrl}/${encodeURIComponent(providerCallId)}.json`, new URLSearchParams({ Status: status }));
  };

  const read = <T>(body: unknown, schema: z.ZodType<T>): T => {
    const parsed = schema.safeParse(body);
    if (!parsed.success) throw new TelephonyError('provider_bad_response', 'provider answered without a call resource', false);
    return parsed.data;
  };

  return {
    name: 'twilio',
    idempotentPlacement: options.idempotentPlacement ?? false,
    async placeCall(request): Promise<PlacedCall> {
      const checked = placeCallRequest.safeParse(request);
      if (!checked.success) {
        const problems = checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
        throw new TelephonyError('invalid_call_request', `call request not sent: ${problems}`, false);
      }
      // https://www.twilio.com/docs/voice/api/call-resource#create-a-call-resource
      const body = await send(`${callsUrl}.json`, createCallForm(request), { [CALL_ID_HEADER]: request.callId });
      const call = callResource.safeParse(body);
      if (!call.success) throw new TelephonyError('provider_bad_response', 'provider answered without a call sid', false);
      return { providerCallId: call.data.sid };
    },
    cancelCall: (providerCallId) => update(providerCallId, 'canceled'),
    hangUpCall: (providerCallId) => update(providerCallId, 'completed'),
    // https://www.twilio.com/docs/voice/api/call-resource#fetch-a-call-resource
    async fetchCall(providerCallId): Promise<ProviderCall> {
      return providerCallOf(read(await send(`${callsUrl}/${encodeURIComponent(providerCallId)}.json`), callResourceSchema));
    },
    // https://www.twilio.com/docs/voice/api/call-resource#read-multiple-call-resources
    async listCalls(filter: CallListFilter): Promise<ProviderCall[]> {
      const query = new URLSearchParams('parentCallSid' in filter ? { ParentCallSid: filter.parentCallSid } : { To: filter.to, From: filter.from });
      query.set('PageSize', String(LOOKUP_PAGE_SIZE));
      return read(await send(`${callsUrl}.json?${query}`), callListSchema).calls.map(providerCallOf);
    },
  };
}
