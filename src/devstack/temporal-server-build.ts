import { cpSync, existsSync } from 'node:fs';
import path from 'node:path';
import { goBinary, goInstalled, run, type GoBuild } from './go-install';

/** The Temporal server version docker-compose.yml runs; `npm run cluster` builds the same one. */
const TEMPORAL_SERVER_VERSION = 'v1.29.1';
/** The Temporal UI server the Temporal CLI v1.5.1 embeds (its go.mod), built on its own for a cluster. */
const TEMPORAL_UI_SERVER_VERSION = 'v2.42.1';

const serverBuild: GoBuild = {
  what: `the Temporal server ${TEMPORAL_SERVER_VERSION}`,
  folder: `temporal-server-${TEMPORAL_SERVER_VERSION}`,
  packages: [`go.temporal.io/server/cmd/server@${TEMPORAL_SERVER_VERSION}`, `go.temporal.io/server/cmd/tools/sql@${TEMPORAL_SERVER_VERSION}`],
  binaries: ['server', 'sql'],
  estimate: 'about 4 minutes on 2 cores',
};

const uiBuild: GoBuild = {
  what: `the Temporal UI server ${TEMPORAL_UI_SERVER_VERSION}`,
  folder: `temporal-ui-server-${TEMPORAL_UI_SERVER_VERSION}`,
  packages: [`github.com/temporalio/ui-server/v2/cmd/server@${TEMPORAL_UI_SERVER_VERSION}`],
  binaries: ['server'],
  estimate: 'about 1 minute on 2 cores',
};

/** The server, its SQL tool and the PostgreSQL schema files (versioned folders of temporal and visibility). */
export interface TemporalServerBinaries {
  server: string;
  sqlTool: string;
  /** schema/postgresql/v12 of the server module: temporal/versioned and visibility/versioned. */
  schemaDir: string;
}

/**
 * Builds (once per machine) the Temporal server and its SQL tool, and keeps the PostgreSQL schema files beside them:
 * they ship with the module's source in the Go module cache, which a cleaned cache would lose.
 */
export async function temporalServerBinaries(say: (line: string) => void, env: NodeJS.ProcessEnv = process.env): Promise<TemporalServerBinaries> {
  const dir = await goInstalled(serverBuild, { env, say });
  const schemaDir = path.join(dir, 'schema', 'postgresql', 'v12');
  if (!existsSync(path.join(schemaDir, 'visibility', 'versioned'))) {
    const go = goBinary(env);
    if (!go) throw new Error('the Temporal schema files come from the Go module cache: install Go');
    const modCache = (await run(go, ['env', 'GOMODCACHE'], env)).trim();
    let source = path.join(modCache, `go.temporal.io/server@${TEMPORAL_SERVER_VERSION}`, 'schema', 'postgresql', 'v12');
    if (!existsSync(source)) {
      await run(go, ['mod', 'download', `go.temporal.io/server@${TEMPORAL_SERVER_VERSION}`], env);
      source = path.join(modCache, `go.temporal.io/server@${TEMPORAL_SERVER_VERSION}`, 'schema', 'postgresql', 'v12');
    }
    cpSync(source, schemaDir, { recursive: true });
  }
  return { server: path.join(dir, 'server'), sqlTool: path.join(dir, 'sql'), schemaDir };
}

/** The Temporal UI server binary, built once per machine. */
export async function temporalUiServerBinary(say: (line: string) => void, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  return path.join(await goInstalled(uiBuild, { env, say }), 'server');
}
