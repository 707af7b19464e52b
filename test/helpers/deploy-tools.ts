import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from './env';

/** The offline deployment tools scripts/deploy-tools.sh installs (once per machine, cached; CI runs it before the tests). */
export interface DeployTools {
  helm: string;
  caddy: string;
  kubernetes_validate: string;
}

/** Installs the tools when missing (minutes, the first time on a machine) and returns their paths. */
export function deployTools(): DeployTools {
  const out = execFileSync('bash', [path.join(repoRoot, 'scripts', 'deploy-tools.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    timeout: 30 * 60_000,
  });
  const paths = Object.fromEntries(
    out
      .trim()
      .split('\n')
      .map((line) => line.split(/=(.*)/s).slice(0, 2)),
  );
  for (const key of ['helm', 'caddy', 'kubernetes_validate']) if (!paths[key]) throw new Error(`scripts/deploy-tools.sh printed no ${key}=`);
  return paths as unknown as DeployTools;
}

/** Runs scripts of deploy/ the way a user does: deploy/certs/generate.sh into a copy in dir. */
export function generateCerts(dir: string, host = 'localhost'): void {
  execFileSync('sh', [path.join(dir, 'generate.sh'), host], { stdio: 'pipe' });
}
