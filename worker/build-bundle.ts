import path from 'node:path';
import { tracedBundlePath, writeBundles } from './bundle';

/** Writes the prebuilt workflow bundles production workers load (WORKER_BUNDLE_PATH, and its traced sibling). */
if (require.main === module) {
  const out = process.argv[2] ?? path.resolve(__dirname, '..', 'workflow-bundle.js');
  writeBundles(out).then(
    () => console.log(`workflow bundles written to ${out} and ${tracedBundlePath(out)}`),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
