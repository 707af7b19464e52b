import { buildSchema, getVariableValues, Kind, parse, validate, type OperationDefinitionNode } from 'graphql';
import { existsSync, readFileSync } from 'node:fs';
import type { RecordedRequest } from './vendor-fake';
import { vendorSpecPath } from './vendor-spec';

/**
 * A validator of recorded GraphQL requests against a vendor's SDL kept in ../shared/vendor-apis/<file> (`x-format:
 * graphql-sdl`, field `sdl`): the body is `{query, variables}`, the document validates against the schema, and the
 * variables coerce to the operation's declared types.
 */
export function graphqlSpec(file: string): (req: RecordedRequest) => string[] {
  const specPath = vendorSpecPath(file);
  if (!existsSync(specPath)) throw new Error(`the vendor description is missing at ${specPath}: request checks need ../shared/vendor-apis/${file}`);
  const wrapper = JSON.parse(readFileSync(specPath, 'utf8')) as { 'x-format'?: string; sdl?: string };
  if (wrapper['x-format'] !== 'graphql-sdl' || typeof wrapper.sdl !== 'string') throw new Error(`${file} holds no GraphQL SDL`);
  const schema = buildSchema(wrapper.sdl);

  return (req) => {
    if (req.method !== 'POST') return [`GraphQL requests are POSTs, not ${req.method}`];
    const body = req.body as { query?: unknown; variables?: unknown } | undefined;
    if (!body || typeof body.query !== 'string') return ['the body has no query string'];
    let document;
    try {
      document = parse(body.query);
    } catch (err) {
      return [`the query does not parse: ${(err as Error).message}`];
    }
    const problems = validate(schema, document).map((e) => e.message);
    if (problems.length > 0) return problems;
    const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
    if (operations.length !== 1) return [`expected one operation, found ${operations.length}`];
    const variables = (body.variables ?? {}) as Record<string, unknown>;
    const coerced = getVariableValues(schema, operations[0]!.variableDefinitions ?? [], variables);
    return coerced.errors ? coerced.errors.map((e) => e.message) : [];
  };
}
