// Prints docs/architecture.md's table of workflow types from workflows/index.ts and each workflow's doc comment, so it
// cannot drift: `node bin/run-ts.js scripts/workflow-table.ts` prints it; test/unit/docs.test.ts checks the page holds it.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.join(__dirname, '..');

/** The first sentence of the doc comment just above `export async function <name>` in file. */
function summary(file: string, name: string): string {
  const text = readFileSync(path.join(root, 'workflows', `${file}.ts`), 'utf8');
  const at = text.search(new RegExp(`export (async )?function ${name}\\b`));
  if (at < 0) throw new Error(`workflows/${file}.ts exports no function ${name}`);
  const before = text.slice(0, at).trimEnd();
  if (!before.endsWith('*/')) return '';
  const doc = before
    .slice(before.lastIndexOf('/**') + 3, -2)
    .replace(/^\s*\* ?/gm, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return (/^.*?\.(?=\s|$)/.exec(doc)?.[0] ?? doc).replace(/\|/g, '\\|');
}

/** One row per workflow type the worker registers: its name, its file, what it does. */
export function workflowTable(): string {
  const index = readFileSync(path.join(root, 'workflows', 'index.ts'), 'utf8');
  const rows = [...index.matchAll(/export \{ (\w+) \} from '\.\/([\w/-]+)';/g)].map(
    ([, name, file]) => `| \`${name}\` | \`workflows/${file}.ts\` | ${summary(file!, name!)} |`,
  );
  return ['| workflow type | file | does |', '|---|---|---|', ...rows].join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === __filename) process.stdout.write(`${workflowTable()}\n`);
