import { repoRoot } from '../helpers/env';
import { forbiddenChains, importCircles, importGraph } from '../helpers/import-graph';

const graph = importGraph(repoRoot, ['src', 'workflows', 'activities', 'worker']);

/** What workflow code may not reach, directly or through any chain of imports (type-only ones included). */
const forbidden = (target: string): boolean =>
  /^(pg|pg-.*|koa|koa-.*|@koa\/.*|undici|ws|pino|node:.*)$/.test(target) ||
  /^src\/(db|http|devstack|[^/]+\/db|api|[^/]+\/http|[^/]+\/[^/]+\/http)\//.test(target);

describe('import graph', () => {
  it('reads the whole code base', () => {
    expect(graph.files.length).toBeGreaterThan(300);
    expect(graph.edges.get('workflows/index.ts')!.files.length).toBeGreaterThan(3);
  });

  it('has no import circles (type-only imports included)', () => {
    expect(importCircles(graph)).toEqual([]);
  });

  it('keeps workflows away from routes, Postgres and the network, even through types', () => {
    const workflows = graph.files.filter((f) => f.startsWith('workflows/'));
    // proxyActivities needs the activities' signatures: a workflow takes activity types (lint allows only types),
    // which the bundle drops; the chain check starts again at what the workflows import besides.
    const chains = forbiddenChains(graph, workflows, forbidden, (f) => f.startsWith('activities/'));
    expect(chains.map((c) => c.join(' -> '))).toEqual([]);
  });

  it('keeps src/core off the domains and the server: its files import src/core, src/net and src/temporal only', () => {
    const core = graph.files.filter((f) => f.startsWith('src/core/'));
    const outside = core.flatMap((f) =>
      graph.edges
        .get(f)!
        .files.filter((t) => !/^src\/(core|net|temporal)\//.test(t))
        .map((t) => `${f} -> ${t}`),
    );
    expect(core.length).toBeGreaterThan(5);
    expect(outside).toEqual([]);
  });

  it('keeps src/http a toolkit: it imports no domain, nor the composition root (src/api) or the worker', () => {
    const toolkit = graph.files.filter((f) => f.startsWith('src/http/'));
    const outside = toolkit.flatMap((f) =>
      graph.edges
        .get(f)!
        .files.filter((t) => !/^src\/(http|core|db|net|temporal|telemetry|crypto)\//.test(t))
        .map((t) => `${f} -> ${t}`),
    );
    expect(toolkit.length).toBeGreaterThan(15);
    expect(outside).toEqual([]);
  });

  it('finds a circle and a chain when there is one', () => {
    const edges = new Map([
      ['workflows/a.ts', { files: ['src/x.ts'], packages: [] }],
      ['src/x.ts', { files: ['src/y.ts'], packages: [] }],
      ['src/y.ts', { files: ['src/x.ts', 'src/calls/db/calls.ts'], packages: [] }],
      ['src/calls/db/calls.ts', { files: [], packages: ['pg'] }],
    ]);
    const g = { files: [...edges.keys()], edges };
    expect(importCircles(g)).toEqual([['src/x.ts', 'src/y.ts']]);
    expect(forbiddenChains(g, ['workflows/a.ts'], forbidden, () => false)).toEqual([['workflows/a.ts', 'src/x.ts', 'src/y.ts', 'src/calls/db/calls.ts']]);
  });
});
