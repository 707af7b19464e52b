// The workflow bundles: one without tracing, and a traced one with the tracing interceptor module. A worker loads the
// one that matches its tracing (worker/workers.ts). The module is left out of the untraced bundle because it acts only
// on traced runs but, bundled, cost every run 2.5–4 ms of worker CPU (measured: one-local-activity workflows, the same
// bundle with and without it, alternated in one process).
import { bundleWorkflowCode, type WorkflowBundleOption } from '@temporalio/worker';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const workflowsPath = require.resolve(path.resolve(__dirname, '..', 'workflows'));

/** Bundled into the traced bundle only: tracing for runs started with a trace. */
const TRACING_INTERCEPTOR_MODULES = [require.resolve(path.resolve(__dirname, '..', 'workflows', 'telemetry', 'interceptors'))];

type BundleLogger = Parameters<typeof bundleWorkflowCode>[0]['logger'];

/** The workflow code, with the tracing interceptor module when traced. */
async function bundleCode(traced: boolean, logger?: BundleLogger): Promise<string> {
  const { code } = await bundleWorkflowCode({ workflowsPath, ...(traced ? { workflowInterceptorModules: TRACING_INTERCEPTOR_MODULES } : {}), logger });
  return code;
}

/** Where a prebuilt bundle's traced sibling is: `workflow-bundle.js` → `workflow-bundle.traced.js`. */
export function tracedBundlePath(bundlePath: string): string {
  return `${bundlePath.replace(/\.js$/, '')}.traced.js`;
}

/** Writes both prebuilt bundles: the untraced one at `out` (WORKER_BUNDLE_PATH) and the traced one beside it. */
export async function writeBundles(out: string, logger?: BundleLogger): Promise<void> {
  writeFileSync(out, await bundleCode(false, logger));
  writeFileSync(tracedBundlePath(out), await bundleCode(true, logger));
}

/** The bundle a worker runs: the prebuilt one matching its tracing (both written by writeBundles), else bundled now. */
export async function workflowBundleFor(prebuilt: string | undefined, traced: boolean, logger?: BundleLogger): Promise<WorkflowBundleOption> {
  if (!prebuilt) return { code: await bundleCode(traced, logger) };
  const codePath = traced ? tracedBundlePath(prebuilt) : prebuilt;
  if (!existsSync(codePath)) {
    throw new Error(`WORKER_BUNDLE_PATH: ${codePath} does not exist (npm run build writes ${traced ? 'it beside the untraced bundle' : 'it'})`);
  }
  return { codePath };
}
