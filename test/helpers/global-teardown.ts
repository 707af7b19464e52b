/** Stops what global setup started (a reused server is left running; so is everything with SWITCHBOARD_KEEP_TEST_STACK=1). */
export default async function globalTeardown(): Promise<void> {
  if (process.env.SWITCHBOARD_KEEP_TEST_STACK === '1') return;
  const stack = globalThis.__switchboardTestStack;
  await stack?.temporal?.stop();
  await stack?.pg?.stop();
}
