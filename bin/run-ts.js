#!/usr/bin/env node
// Runs a TypeScript file from the checkout: `node bin/run-ts.js <file.ts> [args…]`; the file sees its args in process.argv.
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: node bin/run-ts.js <file.ts> [args…]\n');
  process.exit(2);
}
require('ts-node').register({ transpileOnly: true, swc: true, project: path.join(root, 'tsconfig.json') });
// Drop this shim from argv: the script sees [node, file.ts, ...args] as if it had been run directly.
process.argv.splice(1, 1);
require(path.resolve(file));
