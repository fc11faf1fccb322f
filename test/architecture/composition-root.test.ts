import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * One composition root: the engine is opened by runtime/open-engine.ts and its application services are built once,
 * by composition/engine-services.ts. The front ends' handlers — the contract's request handlers and views, and the
 * CLI's commands — receive those services, never the engine or a database; only the hosts hold the engine.
 */

const ROOT = resolve('.');
const at = (path: string) => relative(ROOT, path).split('\\').join('/');

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

const read = (folder: string) => sourceFiles(resolve(folder)).map((path) => ({ path: at(path), text: readFileSync(path, 'utf8') }));

/** The CLI's commands that host something on the engine itself (the window's contract endpoint): they may hold it. */
const HOSTS = new Set(['electron/cli/commands/ui.ts']);

/** What a file imports or reaches that only the composition may: the engine, a database, the stores under the services. */
function reachesPastTheServices(text: string): string[] {
  const found: string[] = [];
  if (/from\s+['"][./]*(?:engine\/)?runtime\/engine['"]/.test(text)) found.push('imports runtime/engine');
  if (/from\s+['"][./]*(?:engine\/)?runtime\/open-engine['"]/.test(text)) found.push('imports runtime/open-engine');
  if (/\bctx\.engine\(/.test(text)) found.push('opens the engine (ctx.engine())');
  if (/\.(?:cache|syncDb)\.(?:db|reader)\b/.test(text)) found.push('reaches a database');
  if (/^import (?!type )[^;]*from\s+['"][./]*(?:engine\/)?(?:cache|sync-state)\/[\w-]+-(?:writes|database)['"]/m.test(text)) found.push('imports a store\'s statements');
  return found;
}

describe('one composition root', () => {
  it('contract handlers and views get the engine\'s services, never the engine or a database', () => {
    const offenders = [...read('electron/engine/contract/handlers'), ...read('electron/engine/contract/views')]
      .flatMap((file) => reachesPastTheServices(file.text).map((what) => `${file.path} ${what}`));
    expect(offenders).toEqual([]);
  });

  it('CLI commands get the engine\'s services (ctx.services()), never the engine or a database; only a host holds the engine', () => {
    const offenders = read('electron/cli/commands')
      .filter((file) => !HOSTS.has(file.path))
      .flatMap((file) => reachesPastTheServices(file.text).map((what) => `${file.path} ${what}`));
    expect(offenders).toEqual([]);
  });

  it('a handler takes (services, input, signal)', () => {
    const types = readFileSync(resolve('electron/engine/contract/handler-types.ts'), 'utf8');
    expect(types).toMatch(/\(services: EngineServices, input: ParsedInput<K>, signal: AbortSignal\)/);
  });

  it('the application services are built in one place', () => {
    const builders = [...read('electron'), ...read('harness')]
      .filter((file) => /\bnew (?:Library|OwnDesigns|GeneratedThumbnails|QueueService)\(/.test(file.text))
      .map((file) => file.path)
      .sort();
    // runtime/queue-actions.ts: the same queue decisions on a bare queue store, for scripts and tests (nothing else told).
    expect(builders).toEqual(['electron/engine/composition/engine-services.ts', 'electron/engine/runtime/engine.ts', 'electron/engine/runtime/queue-actions.ts']);
  });

  it('finds a handler that reaches past the services (the check itself works)', () => {
    expect(reachesPastTheServices("import type { Engine } from '../../runtime/engine';")).toEqual(['imports runtime/engine']);
    expect(reachesPastTheServices('const engine = await ctx.engine();')).toEqual(['opens the engine (ctx.engine())']);
    expect(reachesPastTheServices('getCachedDesign(engine.cache.reader, key)')).toEqual(['reaches a database']);
    expect(reachesPastTheServices("import { upsertDesign } from '../../cache/design-writes';")).toEqual(['imports a store\'s statements']);
  });
});
