import { chmodSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { profilePaths } from '../../electron/engine/profile/profile';
import { startTestService, type TestService } from '../../harness/local-service';
import { runCliCapturing } from '../support/cli';
import { tempDir } from './cache/cache-fixtures';

/**
 * Where the sign-in is kept, and why a kept one cannot be used, come from the engine as facts (a message and its
 * values: the token file's path, its mode) and are said in the command's language; English stays the default.
 */
describe.skipIf(process.platform === 'win32')('the sign-in kept by the command line, in the person\'s language', () => {
  let service: TestService;
  let token: string;
  let profile: string;

  beforeAll(async () => {
    service = await startTestService();
    token = service.addUser('bewaarder').token;
    profile = tempDir('cli-account-language');
    const login = await runCliCapturing(profile, ['--service', service.url, 'login', '--with-token'], token);
    expect(login).toMatchObject({ code: 0, err: '' });
  });
  afterAll(async () => {
    await service.stop();
    rmSync(profile, { recursive: true, force: true });
  });

  it('says where the token is kept in German and Dutch, and in English by default', async () => {
    const tokenFile = profilePaths(profile).tokenFile;
    const german = await runCliCapturing(profile, ['--lang', 'de', 'whoami']);
    expect(german.out.split('\n')).toContain(`Token gespeichert in der Datei ${tokenFile} (nur für Sie lesbar)`);
    const dutch = await runCliCapturing(profile, ['--lang', 'nl', 'whoami']);
    expect(dutch.out.split('\n')).toContain(`Token bewaard in het bestand ${tokenFile} (alleen door jou te lezen)`);
    const english = await runCliCapturing(profile, ['whoami']);
    expect(english.out.split('\n')).toContain(`Token kept in the file ${tokenFile} (readable only by you)`);
    // Scripts read --json: English, as it was.
    expect(JSON.parse((await runCliCapturing(profile, ['--lang', 'de', 'whoami', '--json'])).out)).toMatchObject({ token_storage: `in the file ${tokenFile} (readable only by you)` });
  });

  it('says why a token file others can read is not used, in Dutch and German, its path and mode as they are', async () => {
    const tokenFile = profilePaths(profile).tokenFile;
    chmodSync(tokenFile, 0o644);
    try {
      const dutch = await runCliCapturing(profile, ['--lang', 'nl', 'whoami']);
      expect(dutch.code).toBe(1);
      expect(dutch.err).toBe(`Het tokenbestand ${tokenFile} kan door andere gebruikers worden gelezen of gewijzigd (modus 0644), dus design-sync gebruikt het niet. `
        + `Maak het privé met: chmod 600 '${tokenFile}' — en als iemand anders het misschien heeft gelezen, trek dan de toegang van design-sync in op je profielpagina en log opnieuw in (design-sync login).`);
      const german = await runCliCapturing(profile, ['--lang', 'de', 'whoami']);
      expect(german.err).toMatch(/^Die Token-Datei .* kann von anderen Benutzern gelesen oder geändert werden \(Modus 0644\), daher verwendet design-sync sie nicht\./);
      const english = await runCliCapturing(profile, ['whoami']);
      expect(english.err).toMatch(/^The token file .* can be read or changed by other users \(mode 0644\), so design-sync does not use it\. Make it private with: chmod 600 '.*'/);
    } finally {
      chmodSync(tokenFile, 0o600);
    }
  });
});
