import { readdirSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import * as catalogue from '../../src/integrations/catalogue';
import { catalogueTable } from '../../src/integrations/catalogue-table';
import { catalogueEntries, findAction, findIntegration, listIntegrations } from '../../src/integrations/registry';
import { coverageDeclarations } from '../helpers/integration-coverage';
import { vendorSpecPath } from '../helpers/vendor-spec';

describe('the integration registry', () => {
  const integrations = listIntegrations();

  test('integration keys are unique, snake_case and match their catalogue export; action keys are unique per integration', () => {
    const exported = Object.entries(catalogue);
    expect(exported.map(([name, def]) => [name, def.key])).toEqual(exported.map(([name]) => [name, name]));
    const keys = integrations.map((i) => i.key);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.length).toBe(exported.length);
    for (const integration of integrations) {
      expect(integration.key).toMatch(/^[a-z][a-z0-9_]*$/);
      const actions = integration.actions.map((a) => a.key);
      expect(new Set(actions).size).toBe(actions.length);
      expect(integration.actions.length).toBeGreaterThan(0);
    }
  });

  test('every action’s input and output convert to JSON Schema objects, and every action names its docs page', () => {
    for (const entry of catalogueEntries()) {
      for (const action of entry.actions) {
        expect({ action: `${entry.key}.${action.key}`, type: action.input.type }).toEqual({ action: `${entry.key}.${action.key}`, type: 'object' });
        expect(action.docs).toMatch(/^https:\/\//);
      }
    }
    for (const integration of integrations) {
      for (const action of integration.actions) expect(() => z.toJSONSchema(action.output, { io: 'output', unrepresentable: 'any' })).not.toThrow();
    }
  });

  test('every action has a request test, and every explicitly declared action exists', () => {
    const declarations = coverageDeclarations();
    const named = (d: (typeof declarations)[number], a: string | null) => {
      const integration = findIntegration(d.integration);
      return `${d.integration}.${(integration && findAction(integration, a ?? undefined)?.key) ?? a ?? '(default)'}`;
    };
    const covered = new Set(declarations.flatMap((d) => d.actions.map((a) => named(d, a))));
    const registered = integrations.flatMap((i) => i.actions.map((a) => `${i.key}.${a.key}`));
    expect(registered.filter((a) => !covered.has(a))).toEqual([]);
    // Calls read off the code may be deliberate unknown-action tests; declarations must name real actions.
    const stale = declarations.filter((d) => d.explicit).flatMap((d) => d.actions.map((a) => named(d, a))).filter((a) => !registered.includes(a));
    expect(stale).toEqual([]);
  });

  test('every integration with a vendor API description has its requests validated against it', () => {
    const dir = path.dirname(vendorSpecPath('INDEX.md'));
    const described = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((file) => ({ file, key: file.replace(/\.json$/, '').replace(/-/g, '_') }))
      .filter(({ key }) => findIntegration(key) !== undefined);
    expect(described.length).toBeGreaterThan(0);
    const declarations = coverageDeclarations();
    const unchecked = described.filter(({ file, key }) => !declarations.some((d) => d.integration === key && d.text.includes(`'${file}'`)));
    expect(unchecked).toEqual([]);
  });

  test('the README table generator has one row per integration naming its actions and auth', () => {
    const rows = catalogueTable().split('\n').filter((line) => line.startsWith('| ') && !line.startsWith('| Integration'));
    expect(rows).toHaveLength(integrations.length);
    integrations.forEach((integration, i) => {
      expect(rows[i]).toContain(`(\`${integration.key}\`)`);
      for (const action of integration.actions) expect(rows[i]).toContain(`\`${action.key}\``);
    });
    expect(catalogueTable()).toContain('| Jira (`jira`) | `create_issue`, `add_comment` | Basic or OAuth2 |');
  });
});
