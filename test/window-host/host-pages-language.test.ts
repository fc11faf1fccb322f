import { afterEach, describe, expect, it } from 'vitest';
import { acceptedLanguages } from '../../electron/window-host/host-pages';
import { startWindowHost, type WindowHost } from '../../electron/window-host/window-host';
import { cookieOf, fakeEndpoint, raw } from './host-fixtures';

let host: WindowHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

/** The fake engine with a language setting. */
function endpointSpeaking(language: string) {
  const endpoint = fakeEndpoint();
  const handle = endpoint.handle.bind(endpoint);
  return Object.assign(endpoint, {
    handle: (name: unknown, input: unknown, signal?: AbortSignal) => (name === 'settings.get' ? Promise.resolve({ ok: true as const, value: { language } }) : handle(name, input, signal)),
  });
}

describe('the window host\'s own pages, in the person\'s language', () => {
  it('follows the browser\'s languages while the setting is the system\'s: the page before the window is built, in German', async () => {
    host = await startWindowHost({ endpoint: endpointSpeaking('system'), staticDir: null });
    const cookie = await cookieOf(host.port, host.url);
    const page = await raw(host.port, '/', { cookie, 'accept-language': 'fr-FR,de-DE;q=0.9,en;q=0.5' });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<html lang="de-DE">');
    expect(page.body).toContain('Das Fenster ist noch nicht gebaut. Die Engine läuft, und ihr Vertrag ist unter <code>/contract</code> erreichbar (ein WebSocket).');
    expect(page.body).toContain('Bauen Sie das Fenster und starten Sie <code>design-sync ui</code> neu, um es hier zu verwenden.');
    expect(page.body).not.toMatch(/<script|on\w+=/i);
  });

  it('speaks the language chosen in Settings, whatever the browser asks for: an address without its secret, in Dutch', async () => {
    host = await startWindowHost({ endpoint: endpointSpeaking('nl'), staticDir: null });
    const page = await raw(host.port, '/', { 'accept-language': 'de-DE' });
    expect(page.status).toBe(403);
    expect(page.body).toContain('<html lang="nl">');
    expect(page.body).toContain('<h1>Dit venster heeft zijn adres nodig</h1>');
    expect(page.body).toContain('Open het volledige adres dat <code>design-sync ui</code> heeft getoond');
  });

  it('is English when neither the setting nor the browser names a language it speaks', async () => {
    host = await startWindowHost({ endpoint: fakeEndpoint(), staticDir: null });
    const page = await raw(host.port, '/', { 'accept-language': 'fr' });
    expect(page.body).toContain('<h1>This window needs its address</h1>');
  });

  it('reads Accept-Language by preference, leaving out * and refused languages', () => {
    expect(acceptedLanguages('en;q=0.5, nl-BE, de;q=0.8, fr;q=0, *;q=0.1')).toEqual(['nl-BE', 'de', 'en']);
    expect(acceptedLanguages(undefined)).toEqual([]);
  });
});
