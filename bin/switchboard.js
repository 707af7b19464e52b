#!/usr/bin/env node
// The `switchboard` command. Production images run the compiled dist/; a checkout runs the TypeScript source.
const path = require('node:path');
const fs = require('node:fs');

const root = path.resolve(__dirname, '..');
const compiled = path.join(root, 'dist', 'src', 'cli', 'main.js');
if (process.env.NODE_ENV === 'production' && fs.existsSync(compiled)) {
  require(compiled).main(process.argv.slice(2));
} else {
  require('ts-node').register({ transpileOnly: true, swc: true, project: path.join(root, 'tsconfig.json') });
  require(path.join(root, 'src', 'cli', 'main.ts')).main(process.argv.slice(2));
}
