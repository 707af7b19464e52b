import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import * as catalogue from '../../src/integrations/catalogue';
import { catalogueTable } from '../../src/integrations/catalogue-table';
import { resolveCustomFields } from '../../src/integrations/custom-fields';
import { catalogueEntries, findIntegration, listIntegrations } from '../../src/integrations/registry';
import { resolveAction } from '../../src/integrations/run';
import { actionsWithoutCase, caseKeys, unvalidatedDescriptions } from '../helpers/action-cases';
import { repoRoot } from '../helpers/env';
import { vendorSpecPath } from '../helpers/vendor-spec';
import { allCases } from './cases';

/** Catalogue B (CRM, marketing and support): at least three actions each. */
const CATALOGUE_B = [
  'salesforce',
  'pipedrive',
  'zoho_crm',
  'gohighlevel',
  'close',
  'activecampaign',
  'mailchimp',
  'klaviyo',
  'intercom',
  'zendesk',
  'freshdesk',
];

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
      for (const action of actions) expect(action).toMatch(/^[a-z][a-z0-9_]*$/);
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

  test('every action of the registry has a request case (test/integrations/cases/), and every case names a real action', () => {
    expect(actionsWithoutCase(integrations, allCases)).toEqual([]);
    const registered = integrations.flatMap((i) => i.actions.map((a) => `${i.key}.${a.key}`));
    expect(caseKeys(allCases).filter((k) => !registered.includes(k))).toEqual([]);
    expect(allCases.map((s) => s.integration)).toEqual([...new Set(allCases.map((s) => s.integration))]);
  });

  test('the coverage check is live: an action without a case is named', () => {
    const fabricated = [...integrations, { key: 'fabricated', actions: [{ key: 'never_tested' }] }];
    const slackWithout = allCases.map((s) => (s.integration === 'slack' ? { ...s, cases: [] } : s));
    expect(actionsWithoutCase(fabricated, allCases)).toEqual(['fabricated.never_tested']);
    expect(actionsWithoutCase(integrations, slackWithout)).toEqual([
      'slack.post_message',
      'slack.post_thread_reply',
      'slack.find_user_by_email',
      'slack.list_channels',
    ]);
  });

  test('every integration with a vendor API description has its requests validated against it', () => {
    const dir = path.dirname(vendorSpecPath('INDEX.md'));
    const described = readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((file) => ({ file, key: file.replace(/\.json$/, '').replace(/-/g, '_') }))
      .filter(({ key }) => findIntegration(key) !== undefined);
    expect(described.length).toBeGreaterThan(0);
    expect(unvalidatedDescriptions(described, allCases)).toEqual([]);
    // The check is live: a set without its description, or with every case excused, is named.
    const slack = allCases.find((s) => s.integration === 'slack')!;
    expect(
      unvalidatedDescriptions(
        described,
        allCases.map((s) => (s === slack ? { ...s, spec: undefined } : s)),
      ),
    ).toEqual(['slack (slack.json)']);
    expect(
      unvalidatedDescriptions(
        described,
        allCases.map((s) => (s === slack ? { ...s, cases: s.cases.map((c) => ({ ...c, notDescribed: 'x' })) } : s)),
      ),
    ).toEqual(['slack (slack.json)']);
  });

  test('the catalogue table generator has one row per integration naming its actions and auth', () => {
    const rows = catalogueTable()
      .split('\n')
      .filter((line) => line.startsWith('| ') && !line.startsWith('| Integration'));
    expect(rows).toHaveLength(integrations.length);
    integrations.forEach((integration, i) => {
      expect(rows[i]).toContain(`(\`${integration.key}\`)`);
      for (const action of integration.actions) expect(rows[i]).toContain(`\`${action.key}\``);
    });
    expect(catalogueTable()).toContain('| Jira (`jira`) | — | `create_issue`, `add_comment` | Basic or OAuth2 | no |');
    expect(catalogueTable()).toContain('| HTTP request (`proxy`) | `request` (GET, PUT, DELETE) | `request` (otherwise) | none | no |');
    expect(catalogueTable()).toMatch(/^\| Slack \(`slack`\) \|.*\| yes \(`slack\.json`\) \|$/m);
  });

  test('an integration names its vendor API description exactly when its request cases are validated against it', () => {
    const declared = (list: Array<{ key: string; apiDescription?: string }>) => Object.fromEntries(list.map((i) => [i.key, i.apiDescription ?? null]));
    const validated = Object.fromEntries(allCases.map((s) => [s.integration, s.spec?.file ?? null]));
    expect(declared(integrations)).toEqual(validated);
    // The check is live: an integration claiming a description its cases do not use differs.
    expect(declared(integrations.map((i) => (i.key === 'jira' ? { ...i, apiDescription: 'jira.json' } : i)))).not.toEqual(validated);
  });

  test('docs/automation.md holds the current generated table (scripts/catalogue-table.ts prints it)', () => {
    const readme = readFileSync(path.join(repoRoot, 'docs', 'automation.md'), 'utf8');
    expect(readme.includes(catalogueTable())).toBe(true);
    // The check is live: a table one action short is not the page's.
    expect(readme.includes(catalogueTable(integrations.map((i) => (i.key === 'slack' ? { ...i, actions: i.actions.slice(1) } : i))))).toBe(false);
  });

  test('the catalogue holds at least 120 actions (issue 27)', () => {
    expect(integrations.reduce((n, i) => n + i.actions.length, 0)).toBeGreaterThanOrEqual(120);
  });
  test.each(CATALOGUE_B)('%s is registered with at least three actions', (key) => {
    expect(catalogueEntries().find((e) => e.key === key)?.actions.length).toBeGreaterThanOrEqual(3);
  });
});

describe('the integration registry and runner', () => {
  it('lists every integration with a JSON Schema per action', () => {
    const entries = catalogueEntries();
    expect(entries.map((e) => e.key)).toEqual(expect.arrayContaining(['google_calendar', 'hubspot', 'proxy', 'slack']));
    const slack = entries.find((e) => e.key === 'slack')!;
    expect(slack.auth).toEqual(['oauth2', 'api_key']);
    expect(slack.actions[0]).toMatchObject({
      key: 'post_message',
      idempotent: false,
      input: { type: 'object', required: expect.arrayContaining(['channel', 'text']) },
    });
    expect(JSON.stringify(entries)).not.toContain('$schema');
  });

  it('names what exists when the integration or action is unknown', () => {
    expect(() => resolveAction('nope', 'x')).toThrow(expect.objectContaining({ type: 'unknown_integration', message: expect.stringContaining('slack') }));
    expect(() => resolveAction('slack', 'delete_everything')).toThrow(
      expect.objectContaining({ type: 'unknown_action', message: expect.stringContaining('post_message') }),
    );
    // With a single action the name may be omitted (the live platform's rule); an integration that had one keeps it as its
    // defaultAction, so a stored journey that omits it still runs.
    expect(resolveAction('slack', undefined).action.key).toBe('post_message');
    expect(resolveAction('google_calendar', undefined).action.key).toBe('appointment');
    expect(resolveAction('hubspot', undefined).action.key).toBe('create_contact');
    expect(resolveAction('proxy', undefined).action.key).toBe('request');
  });

  it('resolves custom fields by dotted path, leaving others, and removes customFields', () => {
    const out = resolveCustomFields(
      {
        a: 'k1',
        nested: { b: 'k2' },
        c: 'literal',
        customFields: [{ field: 'a', customFieldEnabled: true }, { field: 'nested.b', customFieldEnabled: true }, { field: 'c' }],
      },
      { fields: { k1: 1, k2: 'two' } },
    );
    expect(out).toEqual({ a: 1, nested: { b: 'two' }, c: 'literal' });
    expect(() => resolveCustomFields({ a: 'k9', customFields: [{ field: 'a', customFieldEnabled: true }] }, undefined)).toThrow(
      expect.objectContaining({ type: 'custom_field_missing', message: expect.stringContaining('"k9"') }),
    );
    expect(() => resolveCustomFields({ customFields: 'x' }, {})).toThrow(expect.objectContaining({ type: 'invalid_params' }));
  });
});
