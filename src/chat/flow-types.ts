import { z } from 'zod';

// The flow graph's shape and types (zod only): the chat workflow reads these types, so nothing here may import what
// reaches the network; flow-schema.ts adds the rules across nodes (known actions among them).

const id = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'node ids: letters, digits, _ and -, 1–64 characters');
const text = z.string().min(1).max(4000);

const Condition = z.union([
  z.strictObject({
    field: z.string().min(1).max(64),
    op: z.enum(['equals', 'not_equals', 'contains', 'gt', 'lt', 'exists']),
    value: z.union([z.string(), z.number()]).optional(),
  }),
  z.strictObject({ keywords: z.array(z.string().min(1)).min(1) }),
  z.strictObject({ classification: z.string().min(1).max(64) }),
]);

const Node = z.discriminatedUnion('type', [
  z.strictObject({ id, type: z.literal('start'), next: id }),
  z.strictObject({ id, type: z.literal('message'), text, next: id }),
  z.strictObject({
    id,
    type: z.literal('question'),
    text,
    /** The lead field the answer is captured into (a standard field or a custom field key). */
    field: z.string().regex(/^[a-z][a-z0-9_]{0,63}$/, 'lowercase letters, digits and underscores, starting with a letter'),
    validate: z.enum(['text', 'email', 'phone', 'number', 'choice']).default('text'),
    choices: z.array(z.string().min(1)).min(2).optional(),
    reask: text.optional(),
    next: id,
  }),
  z.strictObject({ id, type: z.literal('ai_reply'), text: text.optional(), prompt: text, facts: z.array(text).max(100).optional(), next: id }),
  z.strictObject({ id, type: z.literal('decision'), branches: z.array(z.strictObject({ when: Condition, next: id })).min(1), otherwise: id }),
  z.strictObject({
    id,
    type: z.literal('automation'),
    /** The integration (automation type, as on the automation endpoint) and its action. */
    integration: z.string().min(1),
    action: z.string().min(1),
    /** The action's version; set to the latest at import when absent (a later change to its params never breaks the flow). */
    version: z.number().int().min(1).optional(),
    params: z.record(z.string(), z.unknown()).optional(),
    next: id,
    /** Where the flow goes when the action failed; absent: on to next as on success. */
    on_failure: id.optional(),
  }),
  z.strictObject({ id, type: z.literal('end'), text: text.optional() }),
]);

export const FlowGraph = z.strictObject({ nodes: z.array(Node).min(2).max(500) });

export type FlowGraph = z.infer<typeof FlowGraph>;
export type FlowNode = FlowGraph['nodes'][number];
export type FlowCondition = z.infer<typeof Condition>;
