import { WorkflowNotFoundError } from '@temporalio/client';
import { z } from 'zod';
import { presentCallRecord } from '../call-record';
import { assertCancelable, placeApiCall } from '../place';
import { callHeader, callWithLegs } from '../db/calls';
import { documentAs, PHONE_PATTERN } from '../../core/documented';
import { conflict, notFound } from '../../http/api-error';
import { UUID_PATTERN } from '../../core/ids';
import { storable } from '../../core/storable';
import { callWorkflowId } from '../../temporal/ids';
import { defineRoute, workspaceOf } from '../../http/route';
import { answerNamingRun, nameRun } from '../../http/run-link';
import { CallRecord } from '../call-record';
import { isUuid } from '../../core/ids';
import { callTurns } from '../../voice/db/turns';

const CALL_NOT_FOUND = 'Call not found';
const MAX_REQUEST_DATA = 16 * 1024;
// A call's UUID, or a transfer leg's `<uuid>:<n>`.
const CALL_ID = new RegExp(`^(?:${UUID_PATTERN.source.slice(1, -1)})(?::[1-9]\\d{0,3})?$`, 'i');

/** A phone field, documented by the pattern of numbers the api accepts (documentAs must see the described schema itself: describe() clones). */
const phone = (description: string) =>
  documentAs(z.string().min(1).max(64).describe(description), { type: 'string', pattern: PHONE_PATTERN, examples: ['17145551234'] });
const RequestData = documentAs(
  z.unknown().refine((v) => {
    const text = JSON.stringify(v);
    return text !== undefined && Buffer.byteLength(text) <= MAX_REQUEST_DATA && storable(v);
  }, `must be JSON of at most ${MAX_REQUEST_DATA} bytes, without NUL characters or unpaired surrogates`),
  {
    description: `Free-form JSON (at most ${MAX_REQUEST_DATA} bytes; no NUL characters or unpaired surrogates), passed to the call's workflow and record unchanged`,
  },
);

const CallBody = z.strictObject({
  agent: z.string().min(1).max(100).meta({ format: 'uuid' }).describe('Agent UUID'),
  phone: phone('Destination; E.164 (digits, with or without +) or a common written form'),
  from: phone("Caller id: one of the workspace's numbers; default: from the agent's phone group").optional(),
  request_data: RequestData.optional(),
});

const CallStarted = z.object({
  call_id: z.guid().describe('Call UUID'),
  to: z.string().describe('Destination, E.164 digits'),
  from: z.string().describe('Caller id, E.164 digits'),
  agent: z.guid().describe('Agent UUID'),
});

const CallIdQuery = z.strictObject({
  call_id: z.string().regex(CALL_ID, 'must be a call UUID, or a transfer leg id <uuid>:<n>').describe('Call UUID or transfer leg id'),
});
const CancelBody = z.strictObject({ call_id: z.string().min(1).max(100).meta({ format: 'uuid' }).describe('Call UUID') });

const exampleCallId = '0b6f3c1e-8a2d-4f5b-9c7e-1d2a3b4c5d6e';

/** POST /v1/agent: places an outbound call with an agent (spec 4.2). */
export const startCallRoute = defineRoute({
  method: 'post',
  path: '/v1/agent',
  tag: 'Calls',
  summary: 'Initiate an outbound call',
  description:
    "Places a call from the agent to the phone. Without `from`, the caller id comes from the agent's phone group (one with the " +
    "destination's area code first, else the least recently used). Refused before anything is dialled: unknown agent → 404 " +
    '"Invalid agent"; bad phone or a `from` that is not a workspace number → 400; do-not-call list or outside the call window ' +
    "(08:00–21:00 in the lead's time zone, else the workspace's, unless the agent sets its own) → 409; over the workspace's " +
    'concurrent-call cap → 429 with Retry-After. Honours Idempotency-Key: a retried request never places a second call.',
  auth: 'apiKey',
  idempotent: true,
  body: CallBody,
  example: { body: { agent: '3f2b8c4e-9a61-4d2f-b7e3-5c1a0d9e8f47', phone: '17145551234' } },
  links: {
    GetCall: { operationId: 'getV1CallsGet', parameters: { call_id: '$response.body#/call_id' }, description: 'The new call and its legs' },
    CancelCall: { operationId: 'postV1CallsCancel', requestBody: { call_id: '$response.body#/call_id' }, description: 'Cancel the new call' },
  },
  responses: {
    200: { description: 'The call was accepted and is being placed', schema: CallStarted },
    400: { description: 'Invalid phone or from' },
    404: { description: 'Invalid agent' },
    409: {
      description: 'The number is on the do-not-call list, it is outside the call window, or the agent has no numbers to call from (and no from was given)',
    },
    429: { description: 'The workspace has as many calls in progress as its cap allows (Retry-After)' },
  },
  namesRun: {},
  async handler(input) {
    const ws = workspaceOf(input);
    const { db, temporal, config } = input.deps;
    const b = input.body;
    const placed = await placeApiCall({ db, client: temporal.client, taskQueuePrefix: config.TEMPORAL_TASK_QUEUE_PREFIX }, ws, {
      agent: b.agent,
      phone: b.phone,
      ...(b.from !== undefined ? { from: b.from } : {}),
      ...(b.request_data !== undefined ? { requestData: b.request_data } : {}),
    });
    return answerNamingRun(input, placed);
  },
});

/** GET /v1/calls/get: a call and its transfer legs (spec 4.3). */
export const getCallRoute = defineRoute({
  method: 'get',
  path: '/v1/calls/get',
  tag: 'Calls',
  summary: 'Call details',
  description:
    'An array: the call, then one record per transfer leg (`<call_id>:1`, `:2`, … in order). A leg id finds the whole call. ' +
    "Another workspace's call → 404.",
  auth: 'apiKey',
  query: CallIdQuery,
  example: { query: { call_id: exampleCallId } },
  responses: {
    200: { description: 'The call and its legs', schema: z.array(CallRecord) },
    400: { description: 'A malformed call_id' },
    404: { description: 'Call not found' },
  },
  async handler(input) {
    const rows = await callWithLegs(input.deps.db, workspaceOf(input), input.query.call_id.toLowerCase());
    if (!rows) throw notFound(CALL_NOT_FOUND);
    return rows.map(presentCallRecord);
  },
});

/** POST /v1/calls/cancel: stops a call that has not ended (hung up or cancelled at the provider; status canceled). */
export const cancelCallRoute = defineRoute({
  method: 'post',
  path: '/v1/calls/cancel',
  tag: 'Calls',
  summary: 'Cancel a call',
  description:
    'Stops a call that has not ended: before it is dialled nothing rings; a ringing or answered call is ended at the provider. ' +
    "The call ends with status canceled shortly after. A call that already ended → 409; unknown or another workspace's → 404.",
  auth: 'apiKey',
  idempotent: true,
  body: CancelBody,
  example: { body: { call_id: exampleCallId } },
  responses: {
    200: {
      description: 'Cancellation requested',
      schema: z.object({ status: z.literal('success'), call_id: z.string(), message: z.string() }),
    },
    404: { description: 'Call not found' },
    409: { description: 'The call has already ended' },
  },
  namesRun: {},
  async handler(input) {
    const ws = workspaceOf(input);
    const id = input.body.call_id.toLowerCase();
    const call = CALL_ID.test(id) ? await callHeader(input.deps.db, id) : undefined;
    if (!call || call.workspace_id !== ws || call.parent_id !== null) throw notFound(CALL_NOT_FOUND);
    assertCancelable(call.status);
    const workflowId = callWorkflowId(id);
    try {
      await input.deps.temporal.client.workflow.getHandle(workflowId).cancel();
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) throw conflict('Call has already ended');
      throw err;
    }
    nameRun(input.ctx, input.deps.config, workflowId);
    return { status: 'success' as const, call_id: id, message: 'Call cancellation requested' };
  },
});

const Turn = z.object({
  index: z.number().int().describe("The turn's place in the conversation, from 0"),
  speaker: z.enum(['agent', 'callee']),
  text: z.string().describe('What was said; for an interrupted agent turn, only what the callee heard. Keypad digits read `[keypad: 42]`'),
  start_ms: z.number().int().describe('When the turn began, in milliseconds since the conversation started'),
  end_ms: z.number().int(),
  interrupted: z.boolean().describe('The callee cut the agent off'),
});

/** GET /v1/calls/{call_id}/transcript: the conversation's turns, written as they happen. */
export const callTranscriptRoute = defineRoute({
  method: 'get',
  path: '/v1/calls/:call_id/transcript',
  tag: 'Calls',
  summary: "A call's transcript",
  description:
    "The turns of the call's conversation with the voice agent, in order, while the call goes on and after. A call with no " +
    "conversation (not answered) has none. Unknown or another workspace's call → 404.",
  auth: 'apiKey',
  example: { params: { call_id: exampleCallId } },
  responses: {
    200: { description: 'The turns', schema: z.object({ call_id: z.string(), turns: z.array(Turn) }) },
    404: { description: 'Call not found' },
  },
  async handler(input) {
    const ws = workspaceOf(input);
    const id = (input.params.call_id ?? '').toLowerCase();
    const call = isUuid(id) ? await callHeader(input.deps.db, id) : undefined;
    if (!call || call.workspace_id !== ws || call.parent_id !== null) throw notFound(CALL_NOT_FOUND);
    const turns = await callTurns(input.deps.db, ws, id);
    return {
      call_id: id,
      turns: turns.map((t) => ({ index: t.index, speaker: t.speaker, text: t.text, start_ms: t.startMs, end_ms: t.endMs, interrupted: t.interrupted })),
    };
  },
});
