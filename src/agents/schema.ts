// What the api (POST/PATCH /v1/agents, /v1/phone-numbers) and the CLI (agent create|update, phone-number add) accept.
import { z } from 'zod';
import { documentAs, NO_NUL_PATTERN, PHONE_PATTERN } from '../core/documented';
import { CallWindow } from '../schedule/window-schema';

const noNul = (s: string) => !s.includes('\u0000');
// Spaces are ASCII whitespace, spelt out: "\s" and trim() differ between JavaScript and other regex engines (the fuzzer's).
const SPACES = '\\t\\n\\v\\f\\r ';
const HAS_NON_SPACE = new RegExp(`[^${SPACES}]`);
const EDGE_SPACES = new RegExp(`^[${SPACES}]+|[${SPACES}]+$`, 'g');
// The document's rules are checked on the input as sent; surrounding spaces are dropped after.
const name = (description: string) =>
  documentAs(
    z
      .string()
      .max(100, 'at most 100 characters')
      .refine(noNul, 'must not contain NUL characters')
      .regex(HAS_NON_SPACE, 'must not be empty')
      .transform((s) => s.replace(EDGE_SPACES, '')),
    { type: 'string', minLength: 1, maxLength: 100, allOf: [{ pattern: NO_NUL_PATTERN }, { pattern: HAS_NON_SPACE.source }], description },
  );
const Picture = documentAs(z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2048, 'at most 2048 characters'), {
  type: 'string',
  format: 'uri',
  pattern: '^https?://',
  maxLength: 2048,
  description: "The agent's picture (an http(s) URL)",
});
/** A phone as written by a person: normalised (libphonenumber-js, the workspace's region) by the shared module. */
const phone = (description: string) =>
  documentAs(z.string().min(1, 'required').max(64), { type: 'string', pattern: PHONE_PATTERN, examples: ['17145551234'], description });
const Numbers = z
  .array(phone('E.164 (digits, with or without +) or a common written form'))
  .max(100, 'at most 100 numbers')
  .describe("The agent's phone group: numbers new to the workspace are added, the workspace's own are moved here");
const Window = CallWindow.describe("When the agent's calls may ring, in the lead's time zone (else the workspace's); days default to every day");

const text = (max: number, description: string) =>
  z.string().max(max, `at most ${max} characters`).refine(noNul, 'must not contain NUL characters').describe(description);
const engine = z.string().regex(/^[a-z0-9][a-z0-9._/-]{0,99}$/, 'an engine name such as local/piper or openai');
/** An agent's conversation settings (the voice runtime's defaults where left out). */
const voiceFields = {
  prompt: text(20_000, "The agent's instructions (never spoken); lines under a `Facts:` heading are what the scripted agent may answer with"),
  first_message: text(2_000, 'Spoken when the callee answers; `{{first_name}}`, `{{company}}`, other lead fields and request_data keys are filled in'),
  voice: z
    .strictObject({ engine, voice_id: z.string().min(1).max(200).nullable().optional() })
    .describe("Speech synthesis: the engine and its voice id (null: the engine's default)"),
  language: z
    .string()
    .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, 'a BCP 47 language tag such as en-US')
    .describe('BCP 47'),
  stt: z.strictObject({ engine }).describe('Speech recognition engine'),
  llm: z.strictObject({ engine }).describe("The agent's model: scripted, or openai (the configured OpenAI-compatible endpoint)"),
  interruptible: z.boolean().describe('The callee may cut the agent off'),
  silence_timeout_s: z.number().int().min(1).max(600).describe('Silence before one reprompt, then before the call ends'),
  max_duration_s: z.number().int().min(10).max(14_400).describe('The conversation ends at this length'),
  end_call_phrases: z
    .array(z.string().min(1).max(100).refine(noNul, 'must not contain NUL characters'))
    .max(20)
    .describe('The agent saying one of these ends the call'),
};
const nullableVoiceFields = Object.fromEntries(
  Object.entries(voiceFields).map(([k, v]) => [
    k,
    v
      .nullable()
      .optional()
      .describe(`${v.description ?? ''}; null: the default`),
  ]),
) as { [K in keyof typeof voiceFields]: z.ZodOptional<z.ZodNullable<(typeof voiceFields)[K]>> };

/** A new agent. */
export const AgentCreateInput = z.strictObject({
  name: name("The agent's name"),
  profile_picture: Picture.optional(),
  transfer_number: phone('Where a call is transferred to').optional(),
  call_window: Window.optional(),
  numbers: Numbers.optional(),
  phone_group: name('Name of the agent\'s new phone group (default: "<name> numbers")').optional(),
  ...(Object.fromEntries(Object.entries(voiceFields).map(([k, v]) => [k, v.optional()])) as {
    [K in keyof typeof voiceFields]: z.ZodOptional<(typeof voiceFields)[K]>;
  }),
});
export type AgentCreate = z.output<typeof AgentCreateInput>;

/** A change to an agent: only the fields given change; null clears a field. */
export const AgentUpdateInput = z.strictObject({
  name: name("The agent's name").optional(),
  profile_picture: Picture.nullable().optional(),
  transfer_number: phone('Where a call is transferred to; null: none').nullable().optional(),
  call_window: Window.nullable().optional().describe('null: 08:00–21:00 every day'),
  numbers: Numbers.optional().describe("The agent's numbers from now on: others of its group are detached (they stay the workspace's)"),
  ...nullableVoiceFields,
});
export type AgentUpdate = z.output<typeof AgentUpdateInput>;

/** A number added to the workspace, optionally in an agent's phone group. */
export const PhoneNumberAddInput = z.strictObject({
  number: phone('E.164 (digits, with or without +) or a common written form'),
  agent_id: z.guid('must be a UUID').optional().describe('The agent whose phone group gets the number; absent: no agent'),
});
export type PhoneNumberAdd = z.output<typeof PhoneNumberAddInput>;

/** A number moved to another agent of the workspace, or detached (null). */
export const PhoneNumberAssignInput = z.strictObject({
  agent_id: z.guid('must be a UUID').nullable().describe('The agent whose phone group gets the number; null: detach it from every agent'),
});
