// @ts-check
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import formatjs from 'eslint-plugin-formatjs';

/**
 * The layers (docs/architecture.md):
 *   shared/            imports nothing of ours
 *   service/           imports only shared/
 *   electron/engine/   imports only shared/ — plain Node, never the Electron binary; its inner layers in ENGINE_LAYERS
 *   electron/cli/, electron/window-host/ — front ends of the engine (plain Node)
 *   renderer/          imports only shared/
 *   electron/shell/, electron/preload/ — the only code that may import 'electron'
 */
/**
 * The engine's inner layers, lowest first: each may import only the folders it lists (and shared/). The front ends
 * (electron/cli, electron/window-host, electron/shell) sit above the engine; the engine knows none of them.
 */
const ENGINE_LAYERS = {
  // The engine log (log/engine-log.ts): every layer reports the errors it catches there, so it is the lowest.
  log: [],
  sqlite: ['log'],
  api: ['log'],
  profile: ['log'],
  settings: ['log', 'profile'],
  // The bundled local service with sample designs, as a child process the engine starts for a profile trying it.
  'sample-service': ['log', 'settings'],
  authorization: ['log', 'api'],
  cache: ['log', 'api', 'sqlite'],
  'sync-state': ['log', 'sqlite'],
  queue: ['log', 'api', 'authorization', 'sync-state'],
  sync: ['log', 'api', 'authorization', 'queue', 'sync-state'],
  // Designs the person keeps offline: their files brought into the file cache and held there (a service of the engine).
  'keep-offline': ['log', 'api', 'cache'],
  // The slicers installed on this computer (desktop entries, app bundles, the registry) and starting one with a file.
  slicers: ['log'],
  runtime: ['log', 'api', 'profile', 'settings', 'sample-service', 'authorization', 'cache', 'sync-state', 'queue', 'sync', 'keep-offline'],
  // The application services, one folder per capability: the front ends' one way to change what they own.
  'own-designs': ['log', 'api', 'profile', 'settings', 'sample-service', 'authorization', 'cache', 'sync-state', 'queue', 'sync', 'keep-offline', 'runtime'],
  library: ['log', 'api', 'profile', 'settings', 'sample-service', 'authorization', 'cache', 'sync-state', 'queue', 'sync', 'keep-offline', 'runtime', 'slicers'],
  // The composition root's second half: the application services built once over the runtime (engine-services.ts).
  composition: ['log', 'api', 'profile', 'settings', 'sample-service', 'authorization', 'cache', 'sync-state', 'queue', 'sync', 'keep-offline', 'runtime', 'own-designs', 'library', 'slicers'],
  contract: ['log', 'api', 'profile', 'settings', 'sample-service', 'authorization', 'cache', 'sync-state', 'queue', 'sync', 'keep-offline', 'runtime', 'own-designs', 'library', 'slicers', 'composition'],
};
const engineLayer = (name, allowed) => ({
  target: `./electron/engine/${name}`,
  from: Object.keys(ENGINE_LAYERS).filter((other) => other !== name && !allowed.includes(other)).map((other) => `./electron/engine/${other}`),
  message: `electron/engine/${name} may import only ${allowed.map((a) => `engine/${a}`).join(', ') || 'shared/'} of the engine (inner layers, docs/architecture.md)`,
});
const FRONT_ENDS = ['./electron/cli', './electron/window-host', './electron/shell', './electron/preload', './electron/launcher'];

/**
 * The files whose words are all in the catalogs (docs/translations.md): a user-facing literal in their JSX (text, an
 * aria-label, title, placeholder, alt or label) fails. A view is added here once it is converted; the list only grows.
 */
const TRANSLATED_FILES = [
  'renderer/src/i18n/**/*.tsx',
  'renderer/src/views/shell/**/*.tsx',
  'renderer/src/views/settings/**/*.tsx',
  'renderer/src/views/bandwidth/**/*.tsx',
  'renderer/src/views/proxy/**/*.tsx',
  'renderer/src/views/start-at-login/**/*.tsx',
  'renderer/src/views/updates/**/*.tsx',
  'renderer/src/views/library/**/*.tsx',
  'renderer/src/views/author/**/*.tsx',
  'renderer/src/views/drops/**/*.tsx',
  'renderer/src/thumbnails/**/*.tsx',
  'renderer/src/views/mine/**/*.tsx',
  'renderer/src/views/sync/**/*.tsx',
  'renderer/src/views/welcome/**/*.tsx',
  'renderer/src/views/design/**/*.tsx',
];

const ours = ['./shared', './service', './electron', './renderer', './harness', './test', './bench', './build', './scripts'];
/**
 * What tests, benchmarks and the screenshots share (the local service, Chromium, the window, two computers) is in
 * harness/; each of them imports it, never one another, and the harness imports none of them.
 */
const HARNESS_USERS = ['./test', './bench', './build'];
const harnessUser = (target) => ({
  target,
  from: HARNESS_USERS.filter((other) => other !== target),
  message: `${target} may share code with ${HARNESS_USERS.filter((other) => other !== target).join(' and ')} only through harness/ (see docs/architecture.md)`,
});
const layer = (target, allowed) => ({
  target,
  from: ours.filter((folder) => !allowed.includes(folder) && folder !== target),
  message: `${target} may import only ${allowed.join(', ') || 'third-party packages'} (see docs/architecture.md)`,
});

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'out/**', 'release/**', 'coverage/**'] },
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver({ project: ['tsconfig.json', 'tsconfig.web.json'], noWarnOnMultipleProjects: true })] },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-restricted-paths': ['error', {
        zones: [
          layer('./shared', []),
          layer('./service', ['./shared']),
          layer('./renderer', ['./shared']),
          { target: './electron/engine', from: ['./service', './renderer', './harness', './test', './bench', './build', './scripts', ...FRONT_ENDS], message: 'the engine may import only shared/ and itself: it knows none of its front ends' },
          { target: './electron/window-host', from: ['./service', './renderer', './harness', './test', './bench', './build', './scripts', './electron/cli', './electron/shell', './electron/preload'], message: 'the window host may import only the engine and shared/' },
          { target: './electron/cli', from: ['./service', './renderer', './harness', './test', './bench', './build', './scripts', './electron/shell', './electron/preload'], message: 'the CLI may import only the engine, the window host and shared/' },
          { target: './electron/shell', from: ['./service', './renderer', './harness', './test', './bench', './build', './scripts', './electron/cli', './electron/launcher'], message: 'the Electron shell may import only electron, the engine, the window host\'s static files and shared/' },
          { target: './electron/preload', from: ['./service', './renderer', './harness', './test', './bench', './build', './scripts', './electron/engine', './electron/cli', './electron/launcher', './electron/window-host'], message: 'the preload may import only electron and shared/' },
          { target: './electron/launcher', from: ['./service', './renderer', './harness', './test', './bench', './build', './scripts', './electron/shell', './electron/preload'], message: 'the launcher may import only the CLI and the engine (never electron: it runs in plain Node)' },
          { target: './harness', from: [...HARNESS_USERS, './scripts'], message: 'harness/ is shared by the tests, the benchmarks and the screenshots: it imports none of them (see docs/architecture.md)' },
          ...HARNESS_USERS.map(harnessUser),
          ...Object.entries(ENGINE_LAYERS).map(([name, allowed]) => engineLayer(name, allowed)).filter((zone) => zone.from.length > 0),
        ],
      }],
    },
  },
  {
    // The window takes values from shared/'s own modules, types from anywhere: the index would bring zod's schemas
    // (hundreds of kB) into the window's first script.
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [{ regex: '(^|/)shared(/contract)?(/index)?$', allowTypeImports: true, message: 'Import values from the shared module that defines them (e.g. shared/licenses/licenses), not from the index: it carries zod into the window.' }],
      }],
    },
  },
  {
    files: TRANSLATED_FILES,
    plugins: { formatjs },
    rules: {
      'formatjs/no-literal-string-in-jsx': ['error', { props: { include: [['*', '{label,placeholder,title,alt,summary}']] } }],
    },
  },
  {
    files: ['**/*.ts', '**/*.tsx'],
    ignores: ['electron/shell/**', 'electron/preload/**'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'electron', message: 'Only electron/shell and electron/preload may import electron: everything else must run in plain Node.' }],
        patterns: [{ group: ['electron/*'], message: 'Only electron/shell and electron/preload may import electron.' }],
      }],
    },
  },
);
