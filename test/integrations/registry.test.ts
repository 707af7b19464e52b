import { catalogueEntries } from '../../src/integrations/registry';
import { resolveCustomFields } from '../../src/integrations/custom-fields';
import { resolveAction } from '../../src/integrations/run';

describe('the integration registry and runner', () => {
  it('lists every integration with a JSON Schema per action', () => {
    const entries = catalogueEntries();
    expect(entries.map((e) => e.key)).toEqual(expect.arrayContaining(['google_calendar', 'hubspot', 'proxy', 'slack']));
    const slack = entries.find((e) => e.key === 'slack')!;
    expect(slack.auth).toEqual(['oauth2', 'api_key']);
    expect(slack.actions[0]).toMatchObject({ key: 'post_message', idempotent: false, input: { type: 'object', required: expect.arrayContaining(['channel', 'text']) } });
    expect(JSON.stringify(entries)).not.toContain('$schema');
  });

  it('names what exists when the integration or action is unknown', () => {
    expect(() => resolveAction('nope', 'x')).toThrow(expect.objectContaining({ type: 'unknown_integration', message: expect.stringContaining('slack') }));
    expect(() => resolveAction('slack', 'delete_everything')).toThrow(expect.objectContaining({ type: 'unknown_action', message: expect.stringContaining('post_message') }));
    // With a single action the name may be omitted (the live platform's rule).
    expect(resolveAction('slack', undefined).action.key).toBe('post_message');
    expect(resolveAction('proxy', undefined).action.key).toBe('request');
  });

  it('resolves custom fields by dotted path, leaving others, and removes customFields', () => {
    const out = resolveCustomFields({ a: 'k1', nested: { b: 'k2' }, c: 'literal', customFields: [{ field: 'a', customFieldEnabled: true }, { field: 'nested.b', customFieldEnabled: true }, { field: 'c' }] }, { fields: { k1: 1, k2: 'two' } });
    expect(out).toEqual({ a: 1, nested: { b: 'two' }, c: 'literal' });
    expect(() => resolveCustomFields({ a: 'k9', customFields: [{ field: 'a', customFieldEnabled: true }] }, undefined)).toThrow(expect.objectContaining({ type: 'custom_field_missing', message: expect.stringContaining('"k9"') }));
    expect(() => resolveCustomFields({ customFields: 'x' }, {})).toThrow(expect.objectContaining({ type: 'invalid_params' }));
  });
});
