import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * docs/architecture.md is a reference for the code as it is: what it names must be there. These checks hold what can
 * be checked mechanically — every engine folder in its list of layers, every source file it names.
 */
const ROOT = process.cwd();
const DOC = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
const SKIPPED = new Set(['node_modules', 'dist', '.git', 'out', 'release', 'coverage']);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : [relative(ROOT, path)];
  });
}

/**
 * The files a text names in backticks (`runtime/engine.ts`, `main.tsx`) that no file of the repository ends with. A
 * worker bundle (`…-worker.mjs`) is there when its source is; built outputs (`dist/…`) and placeholders (`<time>`) are
 * not looked for.
 */
function namedFilesMissing(text: string, files: readonly string[]): string[] {
  const named = new Set([...text.matchAll(/`([\w./-]+\.(?:ts|tsx|mjs|cjs))`/g)].map((match) => match[1]!));
  const exists = (name: string) => files.some((file) => file === name || file.endsWith(`/${name}`));
  return [...named].filter((name) => {
    if (name.startsWith('dist/')) return false;
    const source = /-worker\.mjs$/.test(name) ? name.replace(/\.mjs$/, '.ts') : name;
    return !exists(source);
  });
}

/** Each engine layer and the layers it may import, as the lint rule enforces them (ENGINE_LAYERS in eslint.config.js). */
async function engineLayers(): Promise<Map<string, string[]>> {
  type Zone = { target: string; from: string[] };
  const configPath: string = join(ROOT, 'eslint.config.js');
  const eslintConfig: unknown = ((await import(configPath)) as { default: unknown }).default;
  const zones = (eslintConfig as { rules?: Record<string, unknown> }[])
    .flatMap((entry) => ((entry.rules?.['import-x/no-restricted-paths'] as [string, { zones: Zone[] }] | undefined)?.[1].zones ?? []))
    .filter((zone) => /^\.\/electron\/engine\/[\w-]+$/.test(zone.target));
  const layerOf = (path: string) => path.replace('./electron/engine/', '');
  const names = new Set(zones.flatMap((zone) => [layerOf(zone.target), ...zone.from.map(layerOf)]));
  return new Map([...names].map((name) => {
    const forbidden = new Set(zones.find((zone) => layerOf(zone.target) === name)?.from.map(layerOf) ?? []);
    return [name, [...names].filter((other) => other !== name && !forbidden.has(other))];
  }));
}

/** The layers a line names before a layer they may import (it should name them lowest first). */
function layersOutOfOrder(line: string, layers: Map<string, string[]>): string[] {
  const at = (name: string) => line.indexOf(`\`${name}\``);
  return [...layers].flatMap(([name, allowed]) => allowed.filter((below) => at(below) > at(name)).map((below) => `${name} may import ${below}, named after it`));
}

describe('docs/architecture.md', () => {
  const files = sourceFiles(ROOT);
  const layerLine = DOC.split('\n').find((line) => line.startsWith('`log` (the engine log'));

  it('names every folder of the engine in its list of layers', () => {
    expect(layerLine, 'the paragraph listing the engine\'s inner layers').toBeDefined();
    const folders = readdirSync(join(ROOT, 'electron/engine'), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name);
    expect(folders.filter((folder) => !layerLine!.includes(`\`${folder}\``))).toEqual([]);
  });

  it('lists the layers lowest first, as the lint rule lets them import: each after every layer it may import', async () => {
    const layers = await engineLayers();
    expect([...layers.keys()].sort()).toEqual(readdirSync(join(ROOT, 'electron/engine'), { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name).sort());
    expect(layersOutOfOrder(layerLine!, layers)).toEqual([]);
  });

  it('finds a layer named before one it may import (the check itself works)', () => {
    const layers = new Map([['log', []], ['slicers', ['log']], ['library', ['log', 'slicers']]]);
    expect(layersOutOfOrder('`log`, `library`, `slicers`', layers)).toEqual(['library may import slicers, named after it']);
  });

  it('names only source files that exist', () => {
    expect(namedFilesMissing(DOC, files)).toEqual([]);
  });

  it('finds a named file that does not exist (the check itself works)', () => {
    expect(namedFilesMissing('`runtime/open-engine.ts` and `runtime/no-such-file.ts`, `checkpoint-thread-worker.mjs`', files)).toEqual(['runtime/no-such-file.ts']);
  });
});
