import path from 'node:path';
import { executable, goBinary, goInstalled, onPath, switchboardCache, type GoBuild } from './go-install';

/** The Temporal CLI version we build: later tags fail `go install` because of a replace directive. */
const TEMPORAL_CLI_VERSION = 'v1.5.1';

export type TemporalCli = { kind: 'binary'; path: string; source: string } | { kind: 'sdk-download'; downloadDir: string };

const cliBuild: GoBuild = {
  what: `the Temporal CLI ${TEMPORAL_CLI_VERSION}`,
  folder: `temporal-cli-${TEMPORAL_CLI_VERSION}`,
  packages: [`github.com/temporalio/cli/cmd/temporal@${TEMPORAL_CLI_VERSION}`],
  binaries: ['temporal'],
  estimate: 'about 5½ minutes on 2 cores, a 252 MB binary',
};

/** Cache folder for the CLI binary, shared by every clone on the machine (survives a fresh CI clone). */
const cliCacheDir = (env: NodeJS.ProcessEnv = process.env): string => path.join(switchboardCache(env), cliBuild.folder);

/**
 * Finds a Temporal CLI: TEMPORAL_CLI_PATH → `temporal` on PATH → the cache folder → `go install` into the
 * cache → the SDK's download (for machines with internet). Throws a message saying what to do when none works.
 */
export async function resolveTemporalCli(opts: { env?: NodeJS.ProcessEnv; say?: (line: string) => void } = {}): Promise<TemporalCli> {
  const env = opts.env ?? process.env;
  const say = opts.say ?? ((line: string) => process.stderr.write(`${line}\n`));
  if (env.TEMPORAL_CLI_PATH) {
    if (!executable(env.TEMPORAL_CLI_PATH)) {
      throw new Error(`TEMPORAL_CLI_PATH: ${env.TEMPORAL_CLI_PATH} is not an executable file`);
    }
    return { kind: 'binary', path: env.TEMPORAL_CLI_PATH, source: 'TEMPORAL_CLI_PATH' };
  }
  const fromPath = onPath('temporal', env);
  if (fromPath) return { kind: 'binary', path: fromPath, source: 'PATH' };

  const cache = cliCacheDir(env);
  const cached = path.join(cache, 'temporal');
  if (executable(cached)) return { kind: 'binary', path: cached, source: 'cache' };

  if (goBinary(env)) {
    // A failed build falls back to the SDK's download below.
    await goInstalled(cliBuild, { env, say }).catch((err: Error) => say(`go install of the Temporal CLI failed: ${err.message}`));
    if (executable(cached)) return { kind: 'binary', path: cached, source: 'go install' };
  }
  if (env.SWITCHBOARD_NO_CLI_DOWNLOAD !== 'true') {
    say('No Go toolchain: the Temporal SDK will download the CLI (needs internet access).');
    return { kind: 'sdk-download', downloadDir: path.join(cache, 'sdk-download') };
  }
  throw new Error(
    'No Temporal CLI found. Set TEMPORAL_CLI_PATH to a `temporal` binary, put one on PATH, or install Go so it can be built with ' +
      `\`CGO_ENABLED=0 go install github.com/temporalio/cli/cmd/temporal@${TEMPORAL_CLI_VERSION}\`.`,
  );
}
