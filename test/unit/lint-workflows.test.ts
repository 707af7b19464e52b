import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { repoRoot } from '../helpers/env';

/** Lints code as if it were a file in workflows/, with the project's own ESLint config (run as a CLI). */
const lint = async (code: string): Promise<string[]> => {
  const res = spawnSync(
    path.join(repoRoot, 'node_modules', '.bin', 'eslint'),
    ['--stdin', '--stdin-filename', path.join(repoRoot, 'workflows', 'probe.ts'), '--format', 'json'],
    { cwd: repoRoot, input: code, encoding: 'utf8' },
  );
  const [result] = JSON.parse(res.stdout) as { messages: { ruleId: string; message: string }[] }[];
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
};

describe('workflow determinism lint rule', () => {
  it.each([
    ["import { Pool } from 'pg';", 'pg'],
    ["import Koa from 'koa';", 'koa'],
    ["import Router from '@koa/router';", '@koa/router'],
    ["import { readFileSync } from 'fs';", 'fs'],
    ["import { randomUUID } from 'node:crypto';", 'node:crypto'],
    ["import { createDb } from '../src/db/pool';", 'src/db'],
    ["import { insertCall } from '../src/calls/db/calls';", "a domain's db/ folder"],
    ["import type { AppState } from '../src/http/state';", 'src/http'],
    ["import { getCallRoute } from '../src/calls/http/calls';", "a domain's http/ folder"],
    ["import { createActivities } from '../activities';", 'activity values'],
  ])('rejects %s (%s)', async (code) => {
    expect(await lint(`${code}\nexport const x = 1;\n`)).toHaveLength(1);
  });

  it('allows the workflow SDK and activity types', async () => {
    const code =
      "import { proxyActivities } from '@temporalio/workflow';\nimport type { Activities } from '../activities';\nexport const a = proxyActivities<Activities>({ startToCloseTimeout: '1 minute' });\n";
    expect(await lint(code)).toEqual([]);
  });
});
