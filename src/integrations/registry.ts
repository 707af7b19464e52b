import { z } from 'zod';
import * as catalogue from './catalogue';
import { actionVersion, type ActionDefinition, type ConnectionKind, type IntegrationDefinition } from './define';

const byKey = new Map<string, IntegrationDefinition>();
for (const integration of Object.values(catalogue) as IntegrationDefinition[]) {
  if (byKey.has(integration.key)) throw new Error(`duplicate integration ${integration.key}`);
  byKey.set(integration.key, integration);
}

/** Every integration, by key order. */
export function listIntegrations(): IntegrationDefinition[] {
  return [...byKey.values()].sort((a, b) => a.key.localeCompare(b.key));
}

/** One integration by its key (the spec's automationType), or undefined. */
export function findIntegration(key: string): IntegrationDefinition | undefined {
  return byKey.get(key);
}

/** Every version of an action key, oldest first. */
export const actionVersions = (integration: IntegrationDefinition, key: string): ActionDefinition[] =>
  integration.actions.filter((a) => a.key === key).sort((a, b) => actionVersion(a) - actionVersion(b));

/** The latest version of each action key, in the integration's order. */
const latestActions = (integration: IntegrationDefinition): ActionDefinition[] =>
  [...new Set(integration.actions.map((a) => a.key))].map((key) => actionVersions(integration, key).at(-1)!);

/**
 * The action `key` of an integration (its default action when `key` is omitted): the given version, else the latest.
 */
export function findAction(integration: IntegrationDefinition, key: string | undefined, version?: number): ActionDefinition | undefined {
  const keys = new Set(integration.actions.map((a) => a.key));
  const wanted = key ?? integration.defaultAction ?? (keys.size === 1 ? [...keys][0] : undefined);
  const all = wanted === undefined ? [] : actionVersions(integration, wanted);
  return version === undefined ? all.at(-1) : all.find((a) => actionVersion(a) === version);
}

/** The version a stored step or node is pinned to when imported without one: the action's latest (undefined: unknown action). */
export function latestActionVersion(integrationKey: string, actionKey: string): number | undefined {
  const integration = findIntegration(integrationKey);
  const action = integration && findAction(integration, actionKey);
  return action ? actionVersion(action) : undefined;
}

/** One catalogue entry as GET /api/automation/integrations publishes it. */
export interface CatalogueEntry {
  key: string;
  name: string;
  auth: ConnectionKind[];
  /** The latest version of each action (version) with every version's input (versions). */
  actions: Array<{
    key: string;
    title: string;
    description?: string;
    idempotent: boolean;
    idempotentFor?: string;
    docs: string;
    input: Record<string, unknown>;
    version: number;
    versions: Array<{ version: number; input: Record<string, unknown> }>;
  }>;
}

/** The action's input as JSON Schema, generated from its zod schema. */
export function inputJsonSchema(action: ActionDefinition): Record<string, unknown> {
  const schema = z.toJSONSchema(action.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}

/** The whole catalogue with each action's JSON Schema. */
export const catalogueEntries = (): CatalogueEntry[] => listIntegrations().map(catalogueEntry);

/** One integration's entry: the latest version of each action, with every version it still serves. */
export function catalogueEntry(i: IntegrationDefinition): CatalogueEntry {
  return {
    key: i.key,
    name: i.name,
    auth: i.auth.kinds,
    actions: latestActions(i).map((a) => ({
      key: a.key,
      title: a.title,
      ...(a.description ? { description: a.description } : {}),
      idempotent: a.idempotent,
      ...(a.idempotentFor ? { idempotentFor: a.idempotentFor.inputs } : {}),
      docs: a.docs,
      input: inputJsonSchema(a),
      version: actionVersion(a),
      versions: actionVersions(i, a.key).map((v) => ({ version: actionVersion(v), input: inputJsonSchema(v) })),
    })),
  };
}
