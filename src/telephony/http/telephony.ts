import Router from '@koa/router';
import { WorkflowNotFoundError } from '@temporalio/client';
import { telephonyUrls, voiceStreamUrl } from '../../core/config';
import type { AppDeps } from '../../http/deps';
import { callHeader, providerSidOf } from '../../calls/db/calls';
import { TERMINAL_STATUSES, type CallStatus } from '../provider';
import { streamCredential } from '../../voice/credential';
import { connectStreamTwiml, hangupTwiml } from '../../voice/twiml';
import { ApiError, badRequest, forbidden, notFound } from '../../http/api-error';
import { isUuid } from '../../core/ids';
import { callWorkflowId } from '../../temporal/ids';
import { InvalidCallbackError, parseStatusCallback } from '../callback';
import { TWILIO_SIGNATURE_HEADER, verifyTwilioSignature } from '../signature';
import { CALL_EVENT_SIGNAL, type SignalledCallEvent } from '../../../workflows/calls/outbound-call-types';
import type { AppState } from '../../http/state';
import { nameRun } from '../../http/run-link';

const MAX_CALLBACK_BYTES = 256 * 1024;

async function rawBody(req: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_CALLBACK_BYTES) throw new ApiError(413, 'payload_too_large', 'Request body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The provider's status callbacks (unversioned, not for clients): POST /telephony/twilio/status?call_id=<uuid>, form
 * encoded and signed with X-Twilio-Signature over the URL we gave the provider. A bad or missing signature → 403 and
 * nothing recorded; an unknown call → 404; a call whose workflow has ended → 204 (ignored). Otherwise the event is
 * signalled to `call:<callId>`, which drops duplicates and late arrivals.
 */
export function telephonyRouter(deps: AppDeps): Router<AppState> {
  const router = new Router<AppState>();
  router.post('/telephony/twilio/status', async (ctx) => {
    const { statusCallback } = telephonyUrls(deps.config);
    const raw = await rawBody(ctx.req);
    const params = new URLSearchParams(raw);
    const url = ctx.querystring ? `${statusCallback}?${ctx.querystring}` : statusCallback;
    if (!verifyTwilioSignature(deps.config.TWILIO_AUTH_TOKEN, url, params, ctx.get(TWILIO_SIGNATURE_HEADER))) {
      throw forbidden('Invalid or missing X-Twilio-Signature');
    }
    const callId = typeof ctx.query.call_id === 'string' ? ctx.query.call_id.toLowerCase() : '';
    if (!isUuid(callId)) throw badRequest('call_id: must be a call UUID');
    let event;
    try {
      event = parseStatusCallback(params);
    } catch (err) {
      if (err instanceof InvalidCallbackError) throw badRequest(err.message);
      throw err;
    }
    const call = await callHeader(deps.db, callId);
    if (!call || call.parent_id !== null) throw notFound('Call not found');
    const { from: _from, timestamp, ...rest } = event;
    const signalled: SignalledCallEvent = { ...rest, timestamp: timestamp.toISOString() };
    try {
      await deps.temporal.client.workflow.getHandle(callWorkflowId(callId)).signal(CALL_EVENT_SIGNAL, signalled);
      nameRun(ctx, deps.config, callWorkflowId(callId));
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
    }
    ctx.status = 204;
  });

  /**
   * The answered call's instructions (Twilio's `Url`): POST /telephony/twilio/voice?call_id=<uuid>[&resume=1], signed
   * like the status callbacks (403 otherwise). Answers `<Connect><Stream>` to the voice processes, with the call id,
   * a short-lived credential bound to it and the resume flag as `<Parameter>`s, then a `<Redirect>` here with
   * resume=1 for when the stream breaks. An unknown call → 404; a call that has ended, or whose CallSid is not the one
   * placed for it → `<Hangup/>`.
   */
  router.post('/telephony/twilio/voice', async (ctx) => {
    const { voiceAgent } = telephonyUrls(deps.config);
    const raw = await rawBody(ctx.req);
    const params = new URLSearchParams(raw);
    const url = ctx.querystring ? `${voiceAgent}${voiceAgent.includes('?') ? '&' : '?'}${ctx.querystring}` : voiceAgent;
    if (!verifyTwilioSignature(deps.config.TWILIO_AUTH_TOKEN, url, params, ctx.get(TWILIO_SIGNATURE_HEADER))) {
      throw forbidden('Invalid or missing X-Twilio-Signature');
    }
    const callId = typeof ctx.query.call_id === 'string' ? ctx.query.call_id.toLowerCase() : '';
    if (!isUuid(callId)) throw badRequest('call_id: must be a call UUID');
    const call = await callHeader(deps.db, callId);
    if (!call || call.parent_id !== null) throw notFound('Call not found');
    const sid = await providerSidOf(deps.db, callId);
    const callSid = params.get('CallSid');
    ctx.type = 'text/xml';
    if (TERMINAL_STATUSES.has(call.status as CallStatus) || (sid !== null && callSid !== sid)) {
      ctx.body = hangupTwiml();
      return;
    }
    const redirect = new URL(url);
    redirect.searchParams.set('resume', '1');
    const resume = ctx.query.resume === '1';
    const binding = { callId, workspaceId: call.workspace_id, resume };
    ctx.body = connectStreamTwiml({
      streamUrl: voiceStreamUrl(deps.config),
      parameters: {
        call_id: callId,
        credential: streamCredential(deps.config.TWILIO_AUTH_TOKEN, binding, deps.config.VOICE_STREAM_CREDENTIAL_TTL_S),
        resume: resume ? '1' : '0',
      },
      redirectUrl: redirect.toString(),
    });
  });
  return router;
}
