import { findIntegration } from '../../src/integrations/registry';

/**
 * States which actions of an integration a test file runs; registry checks read the literal
 * `declareCoverage('<key>', [...])` call from the file's text. Fails at load time when a named action does not exist.
 */
export function declareCoverage(integration: string, actions: string[]): void {
  const known = findIntegration(integration)?.actions.map((a) => a.key) ?? [];
  const missing = actions.filter((a) => !known.includes(a));
  if (missing.length) throw new Error(`${integration} has no action ${missing.join(', ')}`);
}
