// @ts-check
import tseslint from 'typescript-eslint';
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/**
 * The layers (docs/architecture.md):
 *   shared/            imports nothing of ours
 *   service/           imports only shared/
 *   electron/engine/   imports only shared/ — plain Node, never the Electron binary
 *   renderer/          imports only shared/
 *   electron/shell/, electron/preload/ — the only code that may import 'electron'
 */
const ours = ['./shared', './service', './electron', './renderer', './test', './bench', './scripts'];
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
          { target: './electron/engine', from: ['./service', './renderer', './test', './bench', './scripts', './electron/shell', './electron/preload'], message: 'the engine may import only shared/ and itself' },
        ],
      }],
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
