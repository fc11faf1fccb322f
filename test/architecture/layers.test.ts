import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

async function problems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.map((message) => `${message.ruleId}: ${message.message}`);
}

describe('the layer rule', () => {
  it.each([
    ['shared/x.ts', "import { startService } from '../service/server/start-service';\nexport const x = startService;"],
    ['renderer/x.ts', "import { startService } from '../service/server/start-service';\nexport const x = startService;"],
    ['service/x.ts', "import { startTestService } from '../test/support/local-service';\nexport const y = startTestService;"],
    ['electron/engine/x.ts', "import { startService } from '../../service/server/start-service';\nexport const x = startService;"],
  ])('refuses an import across layers in %s', async (filePath, code) => {
    expect((await problems(filePath, code)).join('\n')).toMatch(/import-x\/no-restricted-paths/);
  });

  it.each(['service/x.ts', 'renderer/x.ts', 'shared/x.ts', 'electron/engine/x.ts'])('refuses electron outside the shell in %s', async (filePath) => {
    expect((await problems(filePath, "import { app } from 'electron';\nexport const x = app;")).join('\n')).toMatch(/no-restricted-imports/);
  });

  it('lets the shell import electron and every layer import shared', async () => {
    expect(await problems('electron/shell/x.ts', "import { app } from 'electron';\nexport const x = app;")).toEqual([]);
    expect(await problems('renderer/x.ts', "import { LICENSES } from '../shared';\nexport const x = LICENSES;")).toEqual([]);
    expect(await problems('electron/engine/x.ts', "import { LICENSES } from '../../shared';\nexport const x = LICENSES;")).toEqual([]);
  });
});
