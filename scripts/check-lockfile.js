#!/usr/bin/env node
// Fails when package-lock.json lacks an optional dependency some locked package declares (typically another
// platform's native binary: @swc/core-*, @unrs/resolver-binding-*), which makes `npm ci` refuse the lock elsewhere.
// Usage: node scripts/check-lockfile.js [path/to/package-lock.json]
const fs = require('node:fs');
const path = require('node:path');

const file = process.argv[2] ?? path.join(__dirname, '..', 'package-lock.json');
const packages = JSON.parse(fs.readFileSync(file, 'utf8')).packages ?? {};

/** Node's resolution inside the lock: <from>/node_modules/<name>, then each enclosing node_modules, then the root. */
function resolves(from, name) {
  for (let dir = from; ; dir = dir.includes('/node_modules/') ? dir.slice(0, dir.lastIndexOf('/node_modules/')) : '') {
    if (packages[`${dir ? `${dir}/` : ''}node_modules/${name}`]) return true;
    if (!dir) return false;
  }
}

const missing = [];
for (const [at, entry] of Object.entries(packages)) {
  for (const name of Object.keys(entry.optionalDependencies ?? {}))
    if (!resolves(at, name)) missing.push(`${name} (optional dependency of ${at || 'the root'})`);
}
if (missing.length) {
  console.error(`package-lock.json is incomplete: ${missing.length} optional dependencies are not recorded:\n  ${missing.join('\n  ')}`);
  console.error("Regenerate it with `npm install --package-lock-only` (it resolves every platform's optional packages from the registry) and commit it.");
  process.exit(1);
}
console.log(`package-lock.json records all ${Object.keys(packages).length - 1} packages' optional dependencies`);
