import metadata from 'libphonenumber-js/metadata.max.json';
import { z } from 'zod';

const documented = new WeakMap<object, Record<string, unknown>>();

/**
 * Documents schema as the given JSON Schema in the OpenAPI document, where zod's conversion cannot say what the api
 * enforces (checks in refinements and handlers: phone validity, either-or bodies, IANA zones).
 */
export function documentAs<T extends z.ZodType>(schema: T, json: Record<string, unknown>): T {
  documented.set(schema, json);
  return schema;
}

/** The JSON Schema a request with this zod schema is documented with. */
export function documentedInput(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _, ...json } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', override: applyDocumented }) as Record<string, unknown>;
  return json;
}

/** z.toJSONSchema's override hook that applies documentAs. */
export function applyDocumented(ctx: { zodSchema: object; jsonSchema: Record<string, unknown> }): void {
  const json = documented.get(ctx.zodSchema);
  if (!json) return;
  const description = ctx.jsonSchema.description;
  for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key];
  Object.assign(ctx.jsonSchema, structuredClone(json), description && !json.description ? { description } : {});
}

type Plan = [string, ...unknown[]];
const usFixedLine = ((metadata.countries as unknown as Record<string, Plan>).US![11] as string[][])[0]![0]!;

/**
 * The documented phone form: US numbers as E.164 digits, with or without '+' (from libphonenumber's own metadata,
 * so every match is a number the api accepts; without '+' in +1 regions, where the digits cannot read otherwise).
 * The api also reads other countries and common written forms.
 */
export const PHONE_PATTERN = `^\\+?1(?:${usFixedLine})$`;

/** Strings Postgres can store: no NUL characters. */
export const NO_NUL_PATTERN = '^[^\\u0000]*$';

/** The IANA time zones the api accepts (as Node's ICU knows them). */
export const TIME_ZONES: readonly string[] = [...Intl.supportedValuesOf('timeZone'), 'UTC'];

/** Idempotency-Key values: 1–255 printable ASCII characters, no space at either end (HTTP strips those). */
export const IDEMPOTENCY_KEY_PATTERN = '^[!-~](?:[ -~]{0,253}[!-~])?$';

/**
 * zod's own email check as JSON Schema: the pattern zod enforces, and no `format: email`, whose validators (the
 * fuzzer's among them) disagree with that pattern at the edges; the document states exactly what the api accepts.
 */
export const EMAIL_JSON: Record<string, unknown> = (({ $schema: _s, format: _f, ...rest }) => rest)(z.toJSONSchema(z.email()) as Record<string, unknown>);
