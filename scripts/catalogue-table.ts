// Prints docs/automation.md's integration catalogue table (integration, actions, auth) from the registry, so it cannot drift:
// `node bin/run-ts.js scripts/catalogue-table.ts` prints it; `… --check docs/automation.md` exits 1 when the file's table differs.
import { readFileSync } from 'node:fs';
import { catalogueTable } from '../src/integrations/catalogue-table';

const table = catalogueTable();
const at = process.argv.indexOf('--check');
if (at >= 0) {
  const file = process.argv[at + 1] ?? 'docs/automation.md';
  if (!readFileSync(file, 'utf8').includes(table)) {
    process.stderr.write(`${file} does not hold the current catalogue table: paste the output of scripts/catalogue-table.ts\n`);
    process.exit(1);
  }
} else {
  process.stdout.write(`${table}\n`);
}
