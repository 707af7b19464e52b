import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './env';

/** The SHA-256 of every recorded history in test/fixtures, by file name: a recorder that writes nothing leaves it equal. */
export const fixtureDigest = (): Record<string, string> => {
  const fixtures = path.join(repoRoot, 'test', 'fixtures');
  return Object.fromEntries(
    readdirSync(fixtures)
      .filter((f) => f.endsWith('.json'))
      .map((f) => [
        f,
        createHash('sha256')
          .update(readFileSync(path.join(fixtures, f)))
          .digest('hex'),
      ]),
  );
};
