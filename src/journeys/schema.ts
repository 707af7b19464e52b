import { z } from 'zod';
import { DomainError } from '../core/errors';
import { FieldKey as FieldName, Tag } from '../leads/rules';
import { parseIsoDuration } from '../schedule/duration';
import { graphProblems } from './graph';
import { CallWindow, Window } from '../schedule/window-schema';
import { issueText } from '../core/validation';

const StepId = z.string().regex(/^[A-Za-z0-9_.-]{1,64}$/, 'letters, digits, _ . - only (1-64 characters)');
/** How a call ends, as the outboundCall workflow reports it (and the call step leaves it for the next branch). */
export const CALL_OUTCOMES = ['human', 'voicemail', 'no_answer', 'busy', 'failed', 'transferred', 'canceled'] as const;
export type CallOutcome = (typeof CALL_OUTCOMES)[number];
/**
 * Outcomes a step leaves for the next branch: wait/tag/untag/update_lead → done; webhook → delivered|failed; call →
 * the call's outcome (skipped for a lead on the do-not-call list); automation → done|failed; trigger → done.
 */
const OUTCOMES = ['done', 'delivered', 'failed', 'skipped', ...CALL_OUTCOMES.filter((o) => o !== 'failed')] as const;

const Condition = z.union(
  [
    z.strictObject({ has_tag: Tag }),
    z.strictObject({ lacks_tag: Tag }),
    z.strictObject({ field: FieldName, equals: z.string() }),
    z.strictObject({ field: FieldName, exists: z.boolean() }),
    z.strictObject({ outcome: z.union([z.enum(OUTCOMES), z.array(z.enum(OUTCOMES)).min(1)]) }),
  ],
  { error: 'must be one of {has_tag}, {lacks_tag}, {field, equals}, {field, exists}, {outcome}' },
);

const base = { id: StepId };
// The JSON Schema states every rule it can (the OpenAPI document, the fuzzer): parseIsoDuration's grammar with a
// non-zero digit somewhere (no zero duration), and the either-or rules as oneOf and dependentRequired.
/** An ISO-8601 duration above zero without years or months, as the document states it. */
export const DURATION_PATTERN = '^(?=.*[1-9])P(?:\\d+W)?(?:\\d+D)?(?:T(?=\\d)(?:\\d+H)?(?:\\d+M)?(?:\\d+(?:\\.\\d{1,3})?S)?)?$';
const Duration = z
  .string()
  .refine((d) => (parseIsoDuration(d) ?? 0) > 0, 'an ISO-8601 duration such as PT10M, PT1S or P2D (no years or months)')
  .meta({ pattern: DURATION_PATTERN });
const exactlyOne = (a: string, b: string) => ({
  oneOf: [
    { required: [a], not: { required: [b] } },
    { required: [b], not: { required: [a] } },
  ],
});

const WaitStep = z
  .strictObject({ ...base, kind: z.literal('wait'), duration: Duration.optional(), until: Window.optional() })
  .refine((s) => (s.duration === undefined) !== (s.until === undefined), 'a wait needs exactly one of duration and until')
  .meta(exactlyOne('duration', 'until'));
const TagStep = z.strictObject({ ...base, kind: z.literal('tag'), tag: Tag });
const UntagStep = z.strictObject({ ...base, kind: z.literal('untag'), tag: Tag });
const UpdateLeadStep = z.strictObject({
  ...base,
  kind: z.literal('update_lead'),
  fields: z
    .record(FieldName, z.string().max(1000).nullable())
    .refine((f) => Object.keys(f).length > 0, 'at least one field')
    .refine((f) => !('phone' in f) && !('tags' in f), 'phone and tags cannot be set here (use tag/untag)')
    .meta({ minProperties: 1, not: { anyOf: [{ required: ['phone'] }, { required: ['tags'] }] } }),
});
const WebhookStep = z.strictObject({
  ...base,
  kind: z.literal('webhook'),
  url: z.url({ protocol: /^https?$/, error: 'an http(s) URL' }),
  payload: z.unknown().optional().describe('JSON template; strings may hold {{lead.first_name}}, {{lead_id}}, {{event_id}} …'),
});
const BranchStep = z.strictObject({
  ...base,
  kind: z.literal('branch'),
  cases: z.array(z.strictObject({ when: Condition, goto: StepId })).min(1),
  else: StepId,
});
const GotoStep = z.strictObject({ ...base, kind: z.literal('goto'), target: StepId });
const EndStep = z.strictObject({ ...base, kind: z.literal('end') });
const CallStep = z
  .strictObject({
    ...base,
    kind: z.literal('call'),
    agent: z.uuid().optional().describe('The agent that calls'),
    agent_id: z.uuid().optional().describe('Older name of agent'),
    window: CallWindow.optional().describe("When the call may ring (default the agent's window, else 08:00-21:00)"),
    retries: z
      .strictObject({
        attempts: z.int().min(1).max(10).describe('Further calls after the first, at most'),
        spacing: Duration.describe('Wait between two calls (ISO-8601 duration)'),
      })
      .optional(),
    retry_on: z.array(z.enum(CALL_OUTCOMES)).min(1).optional().describe('Outcomes that call again (default no_answer and busy)'),
  })
  .refine((s) => (s.agent === undefined) !== (s.agent_id === undefined), { message: 'a call needs agent (the agent UUID)', path: ['agent'] })
  .refine((s) => s.retry_on === undefined || s.retries !== undefined, { message: 'retry_on needs retries', path: ['retry_on'] })
  .meta({ ...exactlyOne('agent', 'agent_id'), dependentRequired: { retry_on: ['retries'] } });
const AutomationStep = z.strictObject({
  ...base,
  kind: z.literal('automation'),
  automationType: z.string().min(1),
  action: z.string().min(1),
  version: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe("The action's version; set to the latest when the journey is imported without one, so a later change to the action's params never breaks it"),
  params: z.record(z.string(), z.unknown()).default({}),
});
/** A named point where outside platforms take over: its data is POSTed to every URL subscribed to it (REST hooks). */
const TriggerStep = z.strictObject({
  ...base,
  kind: z.literal('trigger'),
  name: z.string().min(1).max(200).optional().describe('What no-code platforms show in their step dropdown (default the step id)'),
});

const stepKinds = [WaitStep, TagStep, UntagStep, UpdateLeadStep, WebhookStep, BranchStep, GotoStep, EndStep, CallStep, AutomationStep, TriggerStep] as const;
/** Every step kind, read from the `kind` literal of each step's schema above (a kind is declared once, there). */
export const STEP_KINDS = stepKinds.map((s) => [...s._zod.propValues.kind!][0]) as unknown as readonly [DeclaredKind, ...DeclaredKind[]];
type DeclaredKind = z.output<(typeof stepKinds)[number]>['kind'];

const Step = z.discriminatedUnion('kind', [...stepKinds], {
  error: (iss) => (iss.code === 'invalid_union' ? `must be one of ${STEP_KINDS.join(', ')}` : undefined),
});
/** A journey version: its steps, run in order unless a branch, goto or end says otherwise. */
export const JourneySteps = z.array(Step).min(1, 'a journey needs at least one step').max(500);

export type JourneyStep = z.output<typeof Step>;
export type StepKind = JourneyStep['kind'];
export type StepOf<K extends StepKind> = Extract<JourneyStep, { kind: K }>;
export type BranchCondition = z.output<typeof Condition>;

/** A journey definition that does not validate; `issues` holds one readable line per problem. */
export class JourneyDefinitionError extends DomainError {
  constructor(readonly issues: string[]) {
    super('invalid_journey', `invalid journey: ${issues.join('; ')}`);
  }
}

function where(path: PropertyKey[], steps: unknown): string {
  if (path.length === 0) return 'steps';
  const [index, ...rest] = path;
  const id = Array.isArray(steps) ? (steps[Number(index)] as { id?: unknown } | undefined)?.id : undefined;
  const head = `steps[${String(index)}]${typeof id === 'string' ? ` (${id})` : ''}`;
  return rest.length ? `${head}.${rest.map(String).join('.')}` : head;
}

/** Validates a version's steps: shapes first, then the graph (ids, targets, reachability, loops without a wait). */
export function parseJourneySteps(input: unknown): JourneyStep[] {
  const parsed = JourneySteps.safeParse(input);
  if (!parsed.success) {
    throw new JourneyDefinitionError(parsed.error.issues.map((i) => `${where(i.path, input)}: ${issueText(i)}`));
  }
  const problems = graphProblems(parsed.data);
  if (problems.length) throw new JourneyDefinitionError(problems);
  return parsed.data;
}
