import { z } from 'zod';
import * as catalogue from './catalogue';
import type { ActionDefinition, ConnectionKind, IntegrationDefinition } from './define';

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

/** The action `key` of an integration, or its default action when `key` is omitted. */
export function findAction(integration: IntegrationDefinition, key: string | undefined): ActionDefinition | undefined {
  const wanted = key ?? integration.defaultAction ?? (integration.actions.length === 1 ? integration.actions[0]!.key : undefined);
  return integration.actions.find((a) => a.key === wanted);
}

/** One catalogue entry as GET /api/automation/integrations publishes it. */
export interface CatalogueEntry {
  key: string;
  name: string;
  auth: ConnectionKind[];
  actions: Array<{ key: string; title: string; description?: string; idempotent: boolean; idempotentFor?: string; docs: string; input: Record<string, unknown> }>;
}

/** The action's input as JSON Schema, generated from its zod schema. */
export function inputJsonSchema(action: ActionDefinition): Record<string, unknown> {
  const schema = z.toJSONSchema(action.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}

/** The whole catalogue with each action's JSON Schema. */
export function catalogueEntries(): CatalogueEntry[] {
  return listIntegrations().map((i) => ({
    key: i.key,
    name: i.name,
    auth: i.auth.kinds,
    actions: i.actions.map((a) => ({
      key: a.key,
      title: a.title,
      ...(a.description ? { description: a.description } : {}),
      idempotent: a.idempotent,
      ...(a.idempotentFor ? { idempotentFor: a.idempotentFor.inputs } : {}),
      docs: a.docs,
      input: inputJsonSchema(a),
    })),
  }));
}
