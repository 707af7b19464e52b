// `switchboard campaign …` against the test app's database, Temporal and workers: create, watch to the end, list, and
// the api's refusals.
import { campaignWorkflowId } from '../../src/temporal/ids';
import { callingWorkspace, phoneEnding } from '../helpers/calls';
import { runCli } from '../helpers/processes';
import { startTestApp, type TestApp } from '../helpers/stack';

jest.setTimeout(180_000);

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ workers: true, simulator: true });
});
afterAll(() => app.close());

const cli = async (...args: string[]) => {
  const env = {
    ...process.env,
    DATABASE_URL: app.config.DATABASE_URL,
    TEMPORAL_ADDRESS: app.config.TEMPORAL_ADDRESS,
    TEMPORAL_TASK_QUEUE_PREFIX: app.config.TEMPORAL_TASK_QUEUE_PREFIX,
    TEMPORAL_UI_URL: 'https://temporal.example.test/',
    LOG_LEVEL: 'warn',
  };
  const res = await runCli(args, env);
  return { ...res, json: res.code === 0 && /^[[{]/.test(res.stdout.trim()) ? JSON.parse(res.stdout) : undefined };
};

describe('CLI: campaign', () => {
  it('creates a campaign, watches it to its end, lists it, and refuses what the api refuses', async () => {
    const ws = await callingWorkspace(app);
    const lead = (await app.request('POST', '/v1/lead/create', { key: ws.apiKey, body: { phone: phoneEnding('0001') } })).body.lead_id as string;
    await app.request('PATCH', '/v1/lead/tag', { key: ws.apiKey, body: { lead_id: lead, tag: 'cli' } });

    const created = await cli(
      'campaign',
      'create',
      '--workspace',
      ws.workspaceId,
      '--name',
      'From the CLI',
      '--agent',
      ws.agentId,
      '--tag',
      'cli',
      '--window',
      '{"start":"00:00","end":"23:59"}',
      '--max-concurrent',
      '2',
    );
    expect(created.json).toEqual({ campaign_id: expect.any(String), status: 'running', workflow_url: expect.any(String) });
    const id = created.json.campaign_id as string;
    // The run's page in the Temporal UI, by TEMPORAL_UI_URL and the namespace.
    const run = `https://temporal.example.test/namespaces/${app.config.TEMPORAL_NAMESPACE}/workflows/${encodeURIComponent(campaignWorkflowId(id))}`;
    expect(created.json.workflow_url).toBe(run);

    const watched = await cli('campaign', 'watch', '--workspace', ws.workspaceId, id, '--interval', '0.2');
    expect(watched.code).toBe(0);
    const last = watched.stdout.trim().split('\n').at(-1)!;
    expect(last).toMatch(/^completed\s+1\/1 \(100%\)\s+dialing 0\s+waiting 0\s+pending 0\s+\| human 1, voicemail 0/);

    const listed = await cli('campaign', 'list', '--workspace', ws.workspaceId);
    expect(listed.json).toEqual([expect.objectContaining({ campaign_id: id, status: 'completed', counts: expect.objectContaining({ human: 1, total: 1 }) })]);

    const late = await cli('campaign', 'cancel', '--workspace', ws.workspaceId, id);
    expect([late.code, late.stderr]).toEqual([1, 'error: Campaign already completed\n']);
    const noAudience = await cli('campaign', 'create', '--workspace', ws.workspaceId, '--name', 'x', '--agent', ws.agentId);
    expect(noAudience.code).toBe(64);
    expect(noAudience.stderr).toContain('give exactly one of --tag, --leads, --import');

    // A control prints the run it signalled as well.
    const later = await cli(
      'campaign',
      'create',
      '--workspace',
      ws.workspaceId,
      '--name',
      'Later',
      '--agent',
      ws.agentId,
      '--tag',
      'cli',
      '--start-at',
      new Date(Date.now() + 86_400_000).toISOString(),
    );
    const paused = await cli('campaign', 'pause', '--workspace', ws.workspaceId, later.json.campaign_id);
    expect(paused.json).toEqual({
      campaign_id: later.json.campaign_id,
      status: 'paused',
      workflow_url: `https://temporal.example.test/namespaces/${app.config.TEMPORAL_NAMESPACE}/workflows/${encodeURIComponent(campaignWorkflowId(later.json.campaign_id))}`,
    });
    await cli('campaign', 'cancel', '--workspace', ws.workspaceId, later.json.campaign_id);
  });
});
