import jira from '../../src/integrations/jira';
import type { Connection } from '../../src/integrations/define';
import { caseParams } from '../helpers/action-cases';
import { actionHarness } from '../helpers/integration-harness';
import { jira as cases } from './cases/jira';

// The requests of every action are the cases in ./cases/jira.ts; these are the hosts, the OAuth variant and refusals.
const harness = actionHarness(cases);
const conn = (settings: Record<string, string>): Connection => ({ id: 'c', integration: 'jira', kind: 'basic', secrets: {}, settings });

describe('jira', () => {
  test('each connection reaches its own site; OAuth connections go through api.atlassian.com with the cloud id', () => {
    const baseUrl = jira.baseUrl as (c: Connection) => string;
    expect(baseUrl(conn({ site: 'acme' }))).toBe('https://acme.atlassian.net');
    expect(baseUrl(conn({ site: 'https://acme.atlassian.net/' }))).toBe('https://acme.atlassian.net');
    expect(baseUrl(conn({ cloud_id: '11223344-a1b2-3b33-c444-def123456789' }))).toBe('https://api.atlassian.com/ex/jira/11223344-a1b2-3b33-c444-def123456789');
    expect(() => baseUrl(conn({ site: 'evil.example.com' }))).toThrow('settings.site');
    expect(() => baseUrl(conn({}))).toThrow('settings.site');
  });

  test('an OAuth connection sends its bearer token', async () => {
    harness.fake.on('POST', '/rest/api/3/issue/SUP-42/comment', { status: 201, body: { id: '500', created: '2026-03-01T10:00:00.000+0000' } });
    await harness.run('add_comment', caseParams(cases, 'add_comment'), {
      connection: { kind: 'oauth2', secrets: { access_token: 'atl-oauth' }, settings: { cloud_id: 'x' } },
    });
    expect(harness.sent().headers.authorization).toBe('Bearer atl-oauth');
  });

  test('Jira’s field errors on a 400 reach the caller, not retried', async () => {
    harness.fake.on('POST', '/rest/api/3/issue', { status: 400, body: { errorMessages: [], errors: { issuetype: 'Specify a valid issue type' } } });
    const err = await harness.fail('create_issue', { ...caseParams(cases, 'create_issue'), issueType: 'Nope' });
    expect(err.type).toBe('vendor_rejected');
    expect(err.message).toContain('Specify a valid issue type');
    expect(harness.fake.requests).toHaveLength(1);
  });

  test('custom field ids and the project key are checked before anything is sent', async () => {
    const err = await harness.fail('create_issue', { projectKey: 'sup', summary: 'x', customFieldValues: { Budget: 1 } });
    expect(err.type).toBe('invalid_params');
    expect(err.message).toContain('projectKey');
    expect(err.message).toContain('customFieldValues.Budget');
    expect(harness.fake.requests).toHaveLength(0);
  });

  test('a connection without its API token fails asking to reconnect, nothing sent', async () => {
    const err = await harness.fail('add_comment', caseParams(cases, 'add_comment'), {
      connection: { kind: 'basic', secrets: { username: 'ops@example.com' }, settings: { site: 'acme' } },
    });
    expect(err.type).toBe('vendor_auth_failed');
    expect(err.message).toContain('reconnect');
    expect(harness.fake.requests).toHaveLength(0);
  });
});
