/**
 * The packaging configuration (build/electron-builder.json). `npm run package` cannot run here (no Electron binary can
 * be downloaded), so this checks what can be checked without it: the configuration against electron-builder's own
 * JSON schema and validation, every file it names, the fuses of a shipped app, and that the Electron build of
 * better-sqlite3 is shipped unpacked exactly where the engine looks for it.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { electronBuildPath, electronBuildTag } from '../../electron/engine/sqlite/native-binding';

const ROOT = resolve('.');
const CONFIG_PATH = join(ROOT, 'build/electron-builder.json');
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
const config = readJson(CONFIG_PATH) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const packageJson = readJson(join(ROOT, 'package.json')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** electron-builder's own dependencies (its ajv, its minimatch), so that the checks judge as it does. */
const requireHere = createRequire(import.meta.url);
const requireFromBuilder = createRequire(requireHere.resolve('app-builder-lib/package.json'));
const SCHEMA_PATH = requireHere.resolve('app-builder-lib/scheme.json');

interface AjvError { instancePath: string; message?: string; params: unknown }
type Validate = ((data: unknown) => boolean) & { errors?: AjvError[] | null };
const { default: Ajv } = requireFromBuilder('ajv') as { default: new (options: object) => { compile(schema: object): Validate } };
const validate = new Ajv({ allErrors: true, strict: false }).compile(readJson(SCHEMA_PATH));
const schemaErrors = (candidate: unknown) => (validate(candidate) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message} ${JSON.stringify(error.params)}`));

const { minimatch } = requireFromBuilder('minimatch') as { minimatch: (path: string, pattern: string, options?: object) => boolean };
/**
 * Whether electron-builder's `files` (in order, later negations winning) take a path, with its file macros expanded.
 * node_modules starts taken: electron-builder adds the production dependencies itself, then applies the exclusions.
 */
function filesTake(path: string, platform: string, arch: string): boolean {
  let taken = path.startsWith('node_modules/');
  for (const raw of config.files as string[]) {
    const pattern = raw.replaceAll('${platform}', platform).replaceAll('${arch}', arch);
    if (pattern.startsWith('!')) {
      if (minimatch(path, pattern.slice(1), { dot: true })) taken = false;
    } else if (minimatch(path, pattern, { dot: true })) {
      taken = true;
    }
  }
  return taken;
}

describe('the electron-builder configuration', () => {
  it("is valid against electron-builder's own JSON schema (app-builder-lib's scheme.json, no type coercion)", () => {
    expect(schemaErrors(config)).toEqual([]);
  });

  it("passes electron-builder's own validation (the schema and its deprecation checks)", async () => {
    const { validateConfiguration } = requireFromBuilder('./out/util/config/config') as {
      validateConfiguration(config: object, logger: { isEnabled: boolean; add(key: string, value: unknown): void }): Promise<void>;
    };
    await expect(validateConfiguration(config, { isEnabled: false, add: () => undefined })).resolves.toBeUndefined();
  });

  it('is refused by the same schema check when an option is misspelled or mistyped (the check itself works)', () => {
    expect(schemaErrors({ ...config, electronFuses: { ...config.electronFuses, runAsNod: false } }).join('\n')).toMatch(/additionalProperty.*runAsNod/);
    expect(schemaErrors({ ...config, asar: 'yes' }).length).toBeGreaterThan(0);
    expect(schemaErrors({ ...config, linux: { ...config.linux, target: 42 } }).length).toBeGreaterThan(0);
  });

  it('names the app and builds AppImage and deb for Linux, dmg for macOS, nsis for Windows', () => {
    expect(config.appId).toBe('app.designsync.desktop');
    expect(config.productName).toBe('design-sync');
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.win.target).toEqual(['nsis']);
    expect(config.linux.maintainer).toMatch(/<[^@>]+@[^>]+>/); // the deb target refuses to build without one
  });

  it('sets the fuses of a shipped app', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      enableCookieEncryption: true,
      grantFileProtocolExtraPrivileges: false,
    });
    expect(config.asar).toBe(true);
  });

  it('names only files that exist: icons, entitlements, its schema', () => {
    const named: string[] = [];
    const walk = (value: unknown, key = '') => {
      if (typeof value === 'string' && /^(icon|installerIcon|uninstallerIcon|entitlements|entitlementsInherit)$/.test(key)) named.push(value);
      else if (value && typeof value === 'object') for (const [childKey, child] of Object.entries(value)) walk(child, childKey);
    };
    walk(config);
    expect(named.length).toBeGreaterThanOrEqual(6);
    for (const path of named) expect(existsSync(join(ROOT, path)), path).toBe(true);
    expect(resolve(dirname(CONFIG_PATH), config.$schema)).toBe(SCHEMA_PATH);
  });

  it('has real icons: a Linux set up to 512x512, a Windows .ico up to 256, a macOS .icns up to 1024', async () => {
    for (const size of [16, 32, 48, 64, 128, 256, 512]) {
      const meta = await sharp(join(ROOT, config.linux.icon, `${size}x${size}.png`)).metadata();
      expect([meta.format, meta.width, meta.height, meta.hasAlpha]).toEqual(['png', size, size, true]);
    }
    const ico = readFileSync(join(ROOT, config.win.icon));
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1]);
    const icoSizes = Array.from({ length: ico.readUInt16LE(4) }, (_, index) => ico[6 + 16 * index] || 256);
    expect(icoSizes).toContain(256);
    expect(icoSizes).toContain(16);
    const icns = readFileSync(join(ROOT, config.mac.icon));
    expect(icns.subarray(0, 4).toString('latin1')).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    expect(icns.includes(Buffer.from('ic10'))).toBe(true); // the 1024x1024 image
  });

  it('ships the app, not the checkout: the bundles, the window, package.json and the production node_modules', () => {
    expect(packageJson.main).toBe('dist/shell/main.mjs');
    for (const path of ['package.json', 'dist/shell/main.mjs', 'dist/shell/engine-process.mjs', 'dist/shell/preload.cjs', 'dist/renderer/index.html']) {
      expect(filesTake(path, 'linux', 'x64'), path).toBe(true);
    }
    for (const path of ['electron/shell/main/main.ts', 'service/cli.ts', 'test/shell/packaging.test.ts', 'docs/security.md', 'dist/shell/main.mjs.map', '.data/demo/x']) {
      expect(filesTake(path, 'linux', 'x64'), path).toBe(false);
    }
    // Production dependencies are added by electron-builder itself; electron and electron-builder must not be among them.
    expect(Object.keys(packageJson.dependencies)).not.toContain('electron');
    expect(Object.keys(packageJson.dependencies)).not.toContain('electron-builder');
    expect(Object.keys(packageJson.devDependencies)).toEqual(expect.arrayContaining(['electron', 'electron-builder']));
  });

  it("ships the Electron build of better-sqlite3 unpacked from the asar, at the path the engine's choice looks for, and not the Node build", () => {
    for (const [platform, arch] of [['linux', 'x64'], ['darwin', 'arm64'], ['win32', 'x64']] as const) {
      const tag = electronBuildTag({ versions: { modules: '150' }, platform, arch });
      const shipped = electronBuildPath('', tag).split('\\').join('/');
      expect(shipped).toBe(`build/native/${tag}/better_sqlite3.node`);
      expect(filesTake(shipped, platform, arch), shipped).toBe(true);
      expect((config.asarUnpack as string[]).some((pattern) => minimatch(shipped, pattern, { dot: true })), shipped).toBe(true);
      const otherPlatform = electronBuildPath('', electronBuildTag({ versions: { modules: '150' }, platform: platform === 'linux' ? 'win32' : 'linux', arch })).split('\\').join('/');
      expect(filesTake(otherPlatform, platform, arch), otherPlatform).toBe(false);
    }
    expect(filesTake('node_modules/better-sqlite3/build/Release/better_sqlite3.node', 'linux', 'x64')).toBe(false);
    expect(filesTake('node_modules/better-sqlite3/lib/index.js', 'linux', 'x64')).toBe(true);
  });

  it("never lets electron-builder rebuild node_modules in place (npm test keeps the Node build): npm run package builds the Electron one beside it first", () => {
    expect(config.npmRebuild).toBe(false);
    const steps = (packageJson.scripts.package as string).split('&&').map((step) => step.trim());
    expect(steps.indexOf('npm run rebuild:electron')).toBeGreaterThanOrEqual(0);
    expect(steps.indexOf('npm run rebuild:electron')).toBeLessThan(steps.findIndex((step) => step.startsWith('electron-builder')));
    expect(steps.at(-1)).toBe('electron-builder --config build/electron-builder.json');
    expect(packageJson.scripts['rebuild:electron']).toBe('node build/rebuild-native.mjs');
    expect(statSync(join(ROOT, 'build/rebuild-native.mjs')).isFile()).toBe(true);
    expect(packageJson.scripts.postinstall).toBeUndefined();
  });
});
