// Child process of bench/sleeping.ts: the real worker process (worker/main.ts's startWorker) polling the journeys
// queue only, so its memory is measured alone; answers `memory` (after a GC) over IPC.
import { loadConfig } from '../../src/core/config';
import { startWorker } from '../../worker/main';

async function main(): Promise<void> {
  const worker = await startWorker(loadConfig(process.env));
  await worker.polling;
  process.send!({ ready: true });
  process.on('disconnect', () => void worker.shutdown().then(() => process.exit(0)));
}

process.on('message', (m) => {
  if (m === 'memory') {
    global.gc?.();
    global.gc?.();
    process.send!({ memory: process.memoryUsage() });
  }
});
main().catch((err) => {
  process.stderr.write(`sleeping bench worker failed: ${(err as Error).stack}\n`);
  process.exit(1);
});
