import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import ts from 'typescript';

/** A module's imports: repo files (relative to root, posix) and packages (their names), type-only ones included. */
export interface ImportGraph {
  files: string[];
  edges: Map<string, { files: string[]; packages: string[] }>;
}

const options: ts.CompilerOptions = { module: ts.ModuleKind.CommonJS, moduleResolution: ts.ModuleResolutionKind.Node10, resolveJsonModule: true };

function tsFiles(root: string, dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) return tsFiles(root, rel);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [rel] : [];
  });
}

const packageOf = (spec: string): string => {
  const bare = spec.replace(/^node:/, '');
  if (spec.startsWith('node:') || builtinModules.includes(bare.split('/')[0]!)) return `node:${bare}`;
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
};

/** Every import (static, type-only, require, dynamic import) of every .ts file under the given folders. */
export function importGraph(root: string, folders: string[]): ImportGraph {
  const files = folders.flatMap((f) => tsFiles(root, f));
  const edges = new Map<string, { files: string[]; packages: string[] }>();
  for (const file of files) {
    const abs = path.join(root, file);
    const info = ts.preProcessFile(readFileSync(abs, 'utf8'), true, true);
    const out = { files: [] as string[], packages: [] as string[] };
    for (const { fileName: spec } of info.importedFiles) {
      if (!spec.startsWith('.')) {
        out.packages.push(packageOf(spec));
        continue;
      }
      const resolved = ts.resolveModuleName(spec, abs, options, ts.sys).resolvedModule;
      if (!resolved) throw new Error(`${file}: cannot resolve ${spec}`);
      out.files.push(path.relative(root, resolved.resolvedFileName).split(path.sep).join('/'));
    }
    edges.set(file, out);
  }
  return { files, edges };
}

/** The import circles (strongly connected components of more than one file, or a file importing itself). */
export function importCircles(g: ImportGraph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of g.edges.get(v)?.files ?? []) {
      if (!g.edges.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || g.edges.get(v)!.files.includes(v)) circles.push(scc.sort());
    }
  };
  for (const f of g.files) if (!index.has(f)) visit(f);
  return circles;
}

/**
 * The chains by which the given files reach a forbidden file or package (one shortest chain per forbidden target),
 * not following imports into the skipped folders.
 */
export function forbiddenChains(g: ImportGraph, from: string[], forbidden: (target: string) => boolean, skip: (file: string) => boolean): string[][] {
  const parent = new Map<string, string | null>(from.map((f) => [f, null]));
  const queue = [...from];
  const found = new Map<string, string[]>();
  const chain = (end: string): string[] => {
    const out = [end];
    for (let p = parent.get(end); p; p = parent.get(p)) out.unshift(p);
    return out;
  };
  while (queue.length) {
    const file = queue.shift()!;
    const e = g.edges.get(file);
    if (!e) continue;
    for (const target of [...e.files, ...e.packages]) {
      if (forbidden(target)) {
        if (!found.has(target)) found.set(target, [...chain(file), target]);
        continue;
      }
      if (parent.has(target) || skip(target) || !g.edges.has(target)) continue;
      parent.set(target, file);
      queue.push(target);
    }
  }
  return [...found.values()];
}
