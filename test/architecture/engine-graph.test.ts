import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ENGINE = resolve('electron/engine');

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

function resolveImport(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not this one
    }
  }
  return null;
}

/** Every relative import of the files under `roots` that stays among them, type-only imports included. */
function importGraph(roots: readonly string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of roots.flatMap(sourceFiles)) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)]
      .map((match) => resolveImport(file, match[1]!))
      .filter((target): target is string => target !== null && roots.some((root) => target.startsWith(root)));
    graph.set(file, targets);
  }
  return graph;
}

const engineImportGraph = () => importGraph([ENGINE]);
/** The product's code: the engine, its front ends, the window, what they share, and the local service. */
const PRODUCT = ['electron', 'shared', 'renderer/src', 'service'].map((folder) => resolve(folder));

function findCycle(graph: Map<string, string[]>, unit: (file: string) => string): string[] | null {
  const edges = new Map<string, Set<string>>();
  for (const [from, targets] of graph) {
    for (const to of targets) {
      if (unit(from) === unit(to)) continue;
      if (!edges.has(unit(from))) edges.set(unit(from), new Set());
      edges.get(unit(from))!.add(unit(to));
    }
  }
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): string[] | null => {
    if (state.get(node) === 'done') return null;
    if (state.get(node) === 'open') return [...path.slice(path.indexOf(node)), node];
    state.set(node, 'open');
    path.push(node);
    for (const next of edges.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    path.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of edges.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return null;
}

const folderOf = (file: string) => relative(ENGINE, file).split('/')[0]!;

describe('the engine import graph', () => {
  it('has no cycle between its folders', () => {
    expect(findCycle(engineImportGraph(), folderOf)).toBeNull();
  });

  it('has no cycle between files, in the engine or anywhere in the product (a type-only import counts: a loop of files is one module in pieces)', () => {
    expect(findCycle(engineImportGraph(), (file) => relative(ENGINE, file))).toBeNull();
    expect(findCycle(importGraph(PRODUCT), (file) => relative(resolve('.'), file))).toBeNull();
  });

  it('finds a cycle when one is there (the check itself works)', () => {
    const graph = new Map([[join(ENGINE, 'queue/a.ts'), [join(ENGINE, 'sync/b.ts')]], [join(ENGINE, 'sync/b.ts'), [join(ENGINE, 'queue/a.ts')]]]);
    expect(findCycle(graph, folderOf)).toEqual(['queue', 'sync', 'queue']);
    const files = new Map([[join(ENGINE, 'queue/a.ts'), [join(ENGINE, 'queue/b.ts')]], [join(ENGINE, 'queue/b.ts'), [join(ENGINE, 'queue/a.ts')]]]);
    expect(findCycle(files, (file) => relative(ENGINE, file))).toEqual(['queue/a.ts', 'queue/b.ts', 'queue/a.ts']);
  });
});
