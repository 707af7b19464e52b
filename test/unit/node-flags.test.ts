import { readFileSync } from 'node:fs';
import path from 'node:path';
import { API_NODE_FLAGS } from '../../src/node-flags';

describe('the api process V8 flags', () => {
  it('are the ones the Dockerfile runs the api with (what the benchmarks measure is what runs)', () => {
    const dockerfile = readFileSync(path.join(__dirname, '..', '..', 'Dockerfile'), 'utf8');
    const cmd = dockerfile.split('\n').filter((l) => l.startsWith('CMD '));
    expect(cmd).toHaveLength(1);
    const argv = JSON.parse(cmd[0]!.slice('CMD '.length)) as string[];
    expect(argv).toEqual(['node', ...API_NODE_FLAGS, 'dist/src/main.js']);
  });
});
