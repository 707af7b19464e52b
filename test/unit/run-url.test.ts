import { ConfigError, loadConfig } from '../../src/core/config';
import { withWorkflowUrl, linkedRun } from '../../src/cli/run-url';
import { workflowUrl } from '../../src/temporal/run-url';

describe("a run's address in the Temporal UI", () => {
  it('defaults to the dev UI of TEMPORAL_UI_PORT in TEMPORAL_NAMESPACE, the namespace and id URL-encoded', () => {
    expect(workflowUrl(loadConfig({}), 'call:0b6f3c1e')).toBe('http://127.0.0.1:8233/namespaces/default/workflows/call%3A0b6f3c1e');
    const config = loadConfig({ TEMPORAL_UI_PORT: '9000', TEMPORAL_NAMESPACE: 'prod.acct' });
    expect(workflowUrl(config, 'enrollment:a b/c')).toBe('http://127.0.0.1:9000/namespaces/prod.acct/workflows/enrollment%3Aa%20b%2Fc');
  });

  it('takes TEMPORAL_UI_URL (a trailing slash or not), and refuses one that is no http(s) URL', () => {
    for (const ui of ['https://temporal.example.com/ui', 'https://temporal.example.com/ui/']) {
      expect(workflowUrl(loadConfig({ TEMPORAL_UI_URL: ui }), 'x')).toBe('https://temporal.example.com/ui/namespaces/default/workflows/x');
    }
    expect(() => loadConfig({ TEMPORAL_UI_URL: 'temporal.example.com' })).toThrow(ConfigError);
    expect(() => loadConfig({ TEMPORAL_UI_URL: 'ftp://temporal.example.com' })).toThrow(/TEMPORAL_UI_URL/);
  });

  it('the CLI prints a result naming its run with workflow_url in place of the id, and reads the Link header', () => {
    const config = loadConfig({});
    expect(withWorkflowUrl(config, { campaign_id: 'c1', status: 'paused', workflowId: 'campaign:c1' })).toEqual({
      campaign_id: 'c1',
      status: 'paused',
      workflow_url: 'http://127.0.0.1:8233/namespaces/default/workflows/campaign%3Ac1',
    });
    expect(withWorkflowUrl(config, [{ a: 1 }])).toEqual([{ a: 1 }]);
    expect(linkedRun('<http://ui/namespaces/default/workflows/x>; rel="workflow"')).toBe('http://ui/namespaces/default/workflows/x');
    expect([linkedRun(null), linkedRun('<http://x>; rel="next"')]).toEqual([undefined, undefined]);
  });
});
