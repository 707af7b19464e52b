// The two prebuilt workflow bundles (worker/bundle.ts): the tracing interceptor module only in the traced one, and a
// worker takes the one matching its tracing.
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { tracedBundlePath, workflowBundleFor } from '../../worker/bundle';
import { testEnv } from '../helpers/env';

const INTERCEPTOR = 'OpenTelemetryInboundInterceptor';

describe('workflow bundles', () => {
  it('leaves the tracing interceptor module out of the untraced bundle and puts it in the traced one', () => {
    const untraced = readFileSync(testEnv('bundlePath'), 'utf8');
    const traced = readFileSync(tracedBundlePath(testEnv('bundlePath')), 'utf8');
    expect(untraced).toContain('journeyEnrollment');
    expect(untraced).not.toContain(INTERCEPTOR);
    expect(traced).toContain('journeyEnrollment');
    expect(traced).toContain(INTERCEPTOR);
  });

  it('gives a worker the prebuilt bundle matching its tracing', async () => {
    const prebuilt = testEnv('bundlePath');
    expect(tracedBundlePath('/app/dist/workflow-bundle.js')).toBe('/app/dist/workflow-bundle.traced.js');
    await expect(workflowBundleFor(prebuilt, false)).resolves.toEqual({ codePath: prebuilt });
    await expect(workflowBundleFor(prebuilt, true)).resolves.toEqual({ codePath: tracedBundlePath(prebuilt) });
  });

  it('refuses a traced worker whose prebuilt bundle has no traced sibling, naming the setting', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'bundles-'));
    const lone = path.join(dir, 'workflow-bundle.js');
    writeFileSync(lone, '');
    await expect(workflowBundleFor(lone, true)).rejects.toThrow(/WORKER_BUNDLE_PATH: .*workflow-bundle\.traced\.js does not exist/);
    await expect(workflowBundleFor(lone, false)).resolves.toEqual({ codePath: lone });
  });
});
