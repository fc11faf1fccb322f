import { afterEach, describe, expect, it } from 'vitest';
import { rawHttp } from '../../support/raw-http';
import { startLoopbackReceiver, type LoopbackReceiver } from '../../../electron/engine/authorization/loopback-receiver';
import type { Session } from '../../../electron/engine/authorization/session';
import type { SignInOptions } from '../../../electron/engine/authorization/sign-in';
import { BrowserSignIn } from '../../../electron/engine/runtime/browser-sign-in';
import { createTranslator } from '../../../shared/i18n/create-intl';
import { openProfile } from '../../../harness/profile';

const send = rawHttp;

const signedInForm = new URLSearchParams({ authentication_token: 'tok_0123456789abcdef', user: JSON.stringify({ id: 7, screen_name: 'ada<b>', real_name: null }) }).toString();

let receiver: LoopbackReceiver | null = null;
afterEach(async () => {
  await receiver?.close();
  receiver = null;
});

describe('the sign-in pages the browser is shown, in the caller\'s language', () => {
  it('says signed in in Dutch, the name escaped, the page marked as Dutch', async () => {
    receiver = await startLoopbackReceiver({ words: await createTranslator('nl') });
    const answer = await send(receiver.redirectUrl, { method: 'POST', body: signedInForm, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('<html lang="nl">');
    expect(answer.body).toContain('<title>Ingelogd</title>');
    expect(answer.body).toContain('Je bent bij design-sync ingelogd als ada&lt;b&gt;. Je kunt dit tabblad sluiten.');
  });

  it('says a cancelled sign-in and an address it does not take in German', async () => {
    receiver = await startLoopbackReceiver({ words: await createTranslator('de', ['de-AT']) });
    const missing = await send(new URL('/elsewhere', receiver.redirectUrl).toString());
    expect(missing).toMatchObject({ status: 404, body: expect.stringContaining('Hier gibt es nichts.') });
    const denied = await send(receiver.denyUrl);
    expect(denied.body).toContain('<html lang="de-AT">');
    expect(denied.body).toContain('Die Anmeldung wurde abgebrochen: design-sync hat keinen Zugriff erhalten. Sie können diesen Tab schließen.');
  });

  it('stays English when no language is given', async () => {
    receiver = await startLoopbackReceiver();
    const denied = await send(receiver.denyUrl);
    expect(denied.body).toContain('<html lang="en-GB">');
    expect(denied.body).toContain('Sign-in was cancelled: design-sync did not get access.');
  });

  it('hands the sign-in the words of the locale it is given when it starts', async () => {
    const asked: SignInOptions['words'][] = [];
    let locale: 'de' | 'nl' = 'de';
    const session = {
      signIn: async (options: Omit<SignInOptions, 'store'>) => {
        asked.push(options.words);
        options.onAuthorizationUrl?.('http://127.0.0.1:1/authorize');
        return { kind: 'denied' as const };
      },
    } as unknown as Session;
    const signIn = new BrowserSignIn({ session, serviceUrl: () => 'http://127.0.0.1:1', userAgent: 'test', locale: () => locale });
    const ended = () => new Promise((resolve) => signIn.once('ended', resolve));
    let end = ended();
    await signIn.start();
    await end;
    locale = 'nl';
    end = ended();
    await signIn.start();
    await end;
    expect(asked.map((words) => words?.formatMessage({ id: 'signIn.page.signedIn.title' }))).toEqual(['Angemeldet', 'Ingelogd']);
  });

  it('speaks the system\'s languages the desktop app gives the engine when the setting is the system\'s, not the environment\'s', async () => {
    // The tests' environment is English (vitest.config.ts); the desktop app asks the system, which says German.
    const profile = await openProfile({ serviceUrl: 'http://127.0.0.1:9', systemLanguages: ['de-AT', 'en-GB'], openBrowser: async () => {} });
    try {
      expect(profile.engine.appSettings.store.read().language ?? 'system').toBe('system');
      const authorize = new URL(await profile.engine.account.startSignIn());
      const denied = await send(authorize.searchParams.get('deny_url')!);
      expect(denied.body).toContain('<html lang="de');
      expect(denied.body).toContain('Die Anmeldung wurde abgebrochen: design-sync hat keinen Zugriff erhalten.');
    } finally {
      await profile.close();
    }
  });
});
