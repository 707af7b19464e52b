import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { vendorSpec, vendorSpecPath } from './vendor-spec';

/**
 * Meta's description puts `additionalProperties: false` on the second member of each message type's allOf, which
 * forbids the base fields (to, messaging_product…) the first member requires: no message can pass. The check reads the
 * description from ../shared/vendor-apis/ and drops only that keyword inside allOf members; every other rule stays.
 */
export function whatsappCheck(): ReturnType<typeof vendorSpec> {
  const spec = JSON.parse(readFileSync(vendorSpecPath('whatsapp.json'), 'utf8'));
  const relax = (node: any, inAllOf = false): void => {
    if (Array.isArray(node)) return node.forEach((n) => relax(n, inAllOf));
    if (!node || typeof node !== 'object') return;
    if (inAllOf && node.additionalProperties === false) delete node.additionalProperties;
    for (const [k, v] of Object.entries(node)) relax(v, k === 'allOf');
  };
  relax(spec);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'whatsapp-spec-'));
  mkdirSync(path.join(dir, 'vendor-apis'));
  writeFileSync(path.join(dir, 'vendor-apis', 'whatsapp.json'), JSON.stringify(spec));
  const before = process.env.SWITCHBOARD_SHARED_DIR;
  process.env.SWITCHBOARD_SHARED_DIR = dir;
  try {
    return vendorSpec('whatsapp.json');
  } finally {
    if (before === undefined) delete process.env.SWITCHBOARD_SHARED_DIR;
    else process.env.SWITCHBOARD_SHARED_DIR = before;
    rmSync(dir, { recursive: true, force: true });
  }
}
