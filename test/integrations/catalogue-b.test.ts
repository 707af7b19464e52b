import { readFileSync } from 'node:fs';
import path from 'node:path';
import { catalogueEntries } from '../../src/integrations/registry';

const KEYS = ['salesforce', 'pipedrive', 'zoho_crm', 'gohighlevel', 'close', 'activecampaign', 'mailchimp', 'klaviyo', 'intercom', 'zendesk', 'freshdesk'];

describe('catalogue B (CRM, marketing and support) in the registry', () => {
  const entries = catalogueEntries();

  it.each(KEYS)('%s is registered with snake_case actions, each publishing a JSON Schema and a docs link', (key) => {
    const entry = entries.find((e) => e.key === key);
    expect(entry).toBeDefined();
    expect(entry!.actions.length).toBeGreaterThanOrEqual(3);
    for (const action of entry!.actions) {
      expect(action.key).toMatch(/^[a-z][a-z0-9_]*$/);
      expect(action.input).toMatchObject({ type: 'object' });
      expect(action.docs).toMatch(/^https:\/\//);
    }
  });

  it.each(KEYS)('every %s action is run by its request test', (key) => {
    const file = path.join(__dirname, `${key.replace(/_/g, '-')}.test.ts`);
    const source = readFileSync(file, 'utf8');
    for (const action of entries.find((e) => e.key === key)!.actions) expect(source).toContain(`run('${action.key}'`);
  });
});
