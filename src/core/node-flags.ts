/**
 * The V8 flags the api process runs with: the Dockerfile's CMD, and the benchmarks' api children (bench/server-process.ts),
 * so that what is measured is what runs. test/unit/compose.test.ts checks the Dockerfile's CMD against these.
 *
 * --max-semi-space-size=64 (MB; Node 20's default is 16): under load a request's objects live as long as its Temporal
 * start (~100 ms at 16 calls in flight), long enough to outlive the default young generation's scavenges and be promoted
 * to the old one, where only full collections free them. With room for them to die young, the api's CPU per POST
 * /v1/agent at 16 in flight measured 1778 → 1628 and 1450 → 1211 µs (two runs, each against an api without the flag in
 * the same run). The cost is up to ~150 MB more resident memory per api process at peak.
 */
export const API_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64'];
