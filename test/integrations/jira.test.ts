import jira from '../../src/integrations/jira';
import type { Connection } from '../../src/integrations/define';
import { actionHarness } from '../helpers/integration-harness';

const harness = actionHarness('jira', ['create_issue', 'add_comment'], { kind: 'basic', secrets: { username: 'ops@example.com', password: 'atl-token' }, settings: { site: 'acme' } });
const BASIC = `Basic ${Buffer.from('ops@example.com:atl-token').toString('base64')}`;
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

  test('create_issue sends fields with an ADF description and custom fields by id', async () => {
    harness.fake.on('POST', '/rest/api/3/issue', { status: 201, body: { id: '10000', key: 'SUP-42', self: 'https://acme.atlassian.net/rest/api/3/issue/10000' } });
    const result = await harness.run('create_issue', {
      projectKey: 'SUP',
      summary: 'Caller reports outage',
      description: 'Line one\n\nLine three',
      labels: ['voice'],
      priority: 'High',
      customFieldValues: { customfield_10010: 'acct' },
    });
    const req = harness.sent();
    expect([req.method, req.path]).toEqual(['POST', '/rest/api/3/issue']);
    expect(req.headers.authorization).toBe(BASIC);
    expect(req.body).toEqual({
      fields: {
        customfield_10010: 'acct',
        project: { key: 'SUP' },
        summary: 'Caller reports outage',
        issuetype: { name: 'Task' },
        description: {
          type: 'doc',
          version: 1,
          content: [
            { type: 'paragraph', content: [{ type: 'text', text: 'Line one' }] },
            { type: 'paragraph', content: [] },
            { type: 'paragraph', content: [{ type: 'text', text: 'Line three' }] },
          ],
        },
        labels: ['voice'],
        priority: { name: 'High' },
      },
    });
    expect(result.data).toEqual({ id: '10000', key: 'SUP-42', self: 'https://acme.atlassian.net/rest/api/3/issue/10000' });
  });

  test('add_comment posts an ADF body on the issue', async () => {
    harness.fake.on('POST', '/rest/api/3/issue/SUP-42/comment', { status: 201, body: { id: '500', created: '2026-03-01T10:00:00.000+0000' } });
    const result = await harness.run('add_comment', { issue: 'SUP-42', text: 'Called back, resolved.' }, { connection: { kind: 'oauth2', secrets: { access_token: 'atl-oauth' }, settings: { cloud_id: 'x' } } });
    const req = harness.sent();
    expect([req.method, req.path]).toEqual(['POST', '/rest/api/3/issue/SUP-42/comment']);
    expect(req.headers.authorization).toBe('Bearer atl-oauth');
    expect(req.body).toEqual({ body: { type: 'doc', version: 1, content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Called back, resolved.' }] }] } });
    expect(result.data).toEqual({ id: '500', created: '2026-03-01T10:00:00.000+0000' });
  });

  test('Jira’s field errors on a 400 reach the caller, not retried', async () => {
    harness.fake.on('POST', '/rest/api/3/issue', { status: 400, body: { errorMessages: [], errors: { issuetype: 'Specify a valid issue type' } } });
    const err = await harness.fail('create_issue', { projectKey: 'SUP', summary: 'x', issueType: 'Nope' });
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
    const err = await harness.fail('add_comment', { issue: 'SUP-1', text: 'x' }, { connection: { kind: 'basic', secrets: { username: 'ops@example.com' }, settings: { site: 'acme' } } });
    expect(err.type).toBe('vendor_auth_failed');
    expect(err.message).toContain('reconnect');
    expect(harness.fake.requests).toHaveLength(0);
  });
});
