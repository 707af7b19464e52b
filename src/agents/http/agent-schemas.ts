import { z } from 'zod';
import { NextCursor, PageCursor, PageLimit } from '../../http/page-schemas';

/** Query of GET /v1/agents and GET /v1/phone-numbers. */
export const ListQuery = z.object({ limit: PageLimit.optional(), cursor: PageCursor.optional() });

const WindowOut = z
  .object({
    start: z.string().describe('HH:MM'),
    end: z.string().describe('HH:MM'),
    days: z.array(z.string()).optional().describe('mon…sun; absent: every day'),
  })
  .nullable()
  .describe("When the agent's calls may ring (the lead's time zone, else the workspace's); null: 08:00–21:00 every day");

/** An agent as the api shows it. */
const AgentOut = z.object({
  id: z.guid().describe('Agent UUID (the agent of POST /v1/agent)'),
  name: z.string(),
  profile_picture: z.string().nullable(),
  transfer_number: z.string().nullable().describe('E.164 digits'),
  call_window: WindowOut,
  phone_group_id: z.guid().nullable().describe("The agent's phone group"),
  numbers: z.array(z.string()).describe("The phone group's numbers (E.164 digits): valid `from` values for this agent's calls"),
  created_at: z.iso.datetime(),
  prompt: z.string().describe("The agent's instructions (never spoken)"),
  first_message: z.string().describe('Spoken when the callee answers (a template: `{{first_name}}`, `{{company}}`, lead fields, request_data keys)'),
  voice: z.object({ engine: z.string(), voice_id: z.string().nullable() }).describe('Speech synthesis engine and voice'),
  language: z.string().describe('BCP 47'),
  stt: z.object({ engine: z.string() }).describe('Speech recognition engine'),
  llm: z.object({ engine: z.string() }).describe("The agent's model"),
  interruptible: z.boolean().describe('The callee may cut the agent off'),
  silence_timeout_s: z.number().int().describe('Silence before one reprompt, then before the call ends'),
  max_duration_s: z.number().int().describe('The conversation ends at this length'),
  end_call_phrases: z.array(z.string()).describe('The agent saying one of these ends the call'),
});

/** Body of GET /v1/agents. */
export const AgentPage = z.object({ status: z.literal('success'), agents: z.array(AgentOut).describe('Newest first'), next_cursor: NextCursor });
/** Body of GET/POST/PATCH /v1/agents/{id}. */
export const AgentBody = z.object({ status: z.literal('success'), agent: AgentOut });

/** A phone number as the api shows it. */
const PhoneNumberOut = z.object({
  id: z.guid().describe('Number UUID'),
  number: z.string().describe('E.164 digits: a valid `from` of POST /v1/agent'),
  agent_id: z.guid().nullable().describe('The agent whose phone group holds the number; null: none'),
  phone_group_id: z.guid().nullable(),
  created_at: z.iso.datetime(),
});

/** Body of GET /v1/phone-numbers. */
export const PhoneNumberPage = z.object({
  status: z.literal('success'),
  phone_numbers: z.array(PhoneNumberOut).describe('Newest first'),
  next_cursor: NextCursor,
});
/** Body of POST /v1/phone-numbers and PATCH /v1/phone-numbers/{number}. */
export const PhoneNumberBody = z.object({ status: z.literal('success'), phone_number: PhoneNumberOut });
