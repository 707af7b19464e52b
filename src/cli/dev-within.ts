/** Runs fn, but gives up waiting after ms (saying so): one stuck part must not hold up the others. */
export async function within(what: string, ms: number, fn: (() => Promise<void>) | undefined, say: (line: string) => void): Promise<void> {
  if (!fn) return;
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      say(`${what} did not stop within ${ms} ms; going on`);
      resolve();
    }, ms);
  });
  await Promise.race([fn().catch((err: Error) => say(`${what}: stop failed: ${err.message}`)), limit]);
  clearTimeout(timer);
}
