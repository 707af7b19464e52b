import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from '../helpers/env';

/** The no-restricted-imports messages the project's ESLint config gives code placed at file (relative to the repo). */
const lint = (file: string, code: string): string[] => {
  const res = spawnSync(path.join(repoRoot, 'node_modules', '.bin', 'eslint'), ['--stdin', '--stdin-filename', path.join(repoRoot, file), '--format', 'json'], {
    cwd: repoRoot,
    input: `${code}\nexport const x = 1;\n`,
    encoding: 'utf8',
  });
  const [result] = JSON.parse(res.stdout) as { messages: { ruleId: string; message: string }[] }[];
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
};

describe('layer lint rules', () => {
  it.each([
    ['src/cli/probe.ts', "import { Tag } from '../http/routes/lead-schemas';", /Only src\/http knows HTTP/],
    ['src/leads/probe.ts', "import { describeIssues } from '../http/validation';", /Only src\/http knows HTTP/],
    ['src/http/routes/probe.ts', "import { Client } from 'pg';", /SQL lives in src\/db/],
    ['src/leads/probe.ts', "import { Pool } from 'pg';", /SQL lives in src\/db/],
    ['src/calls/probe.ts', "import type { Context } from 'koa';", /Only src\/http knows HTTP/],
    ['src/chat/webchat/probe.ts', "import type { AppState } from '../../http/state';", /Only src\/http knows HTTP/],
    ['src/telephony/probe.ts', "import { telephonyRouter } from './http/telephony';", /Only src\/http knows HTTP/],
    ['src/calls/db/probe.ts', "import { calls } from '../http/calls';", /Only src\/http knows HTTP/],
  ])('%s may not: %s', (file, code, message) => {
    expect(lint(file, code)).toEqual([expect.stringMatching(message)]);
  });

  it.each([
    ['src/db/probe.ts', "import { Pool } from 'pg';"],
    ['src/cli/probe.ts', "import { CustomFieldDef } from '../leads/rules';"],
    ['src/http/routes/probe.ts', "import { Tag } from '../../leads/rules';"],
    ['src/calls/db/probe.ts', "import { Pool } from 'pg';"],
    ['src/calls/http/probe.ts', "import Router from '@koa/router';"],
    ['src/leads/http/probe.ts', "import { describeIssues } from '../../http/validation';"],
  ])('%s may: %s', (file, code) => {
    expect(lint(file, code)).toEqual([]);
  });
});
