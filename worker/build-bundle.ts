import { bundleWorkflowCode } from '@temporalio/worker';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { workflowInterceptorModules, workflowsPath } from './workers';

/** Writes the prebuilt workflow bundle production workers load (WORKER_BUNDLE_PATH). */
export async function buildBundle(out: string): Promise<void> {
  const { code } = await bundleWorkflowCode({ workflowsPath, workflowInterceptorModules });
  writeFileSync(out, code);
}

if (require.main === module) {
  const out = process.argv[2] ?? path.resolve(__dirname, '..', 'workflow-bundle.js');
  buildBundle(out).then(
    () => console.log(`workflow bundle written to ${out}`),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
