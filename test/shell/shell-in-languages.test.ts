import { describe, expect, it, vi } from 'vitest';
import { createShellWords } from '../../electron/shell/main/shell-words';
import { appMenuTemplate } from '../../electron/shell/menu/app-menu';
import { createNotificationPolicy } from '../../electron/shell/notifications/notification-policy';
import { trayMenuTemplate, type TrayMenuActions } from '../../electron/shell/tray/tray-menu';
import { trayView } from '../../electron/shell/tray/tray-state';
import { updateNotice } from '../../electron/shell/updates/update-notice';
import { createTranslator } from '../../shared/i18n/create-intl';
import { accountView, connectivity, queueEntry, syncView } from './shell-fixtures';

// The code under test needs only Electron's types; loading the real module (which downloads its binary) fails the test.
vi.mock('electron', () => {
  throw new Error('the real electron module must not be loaded in tests');
});

type MenuItem = ReturnType<typeof trayMenuTemplate>[number];
const actions = (): TrayMenuActions => ({
  openWindow: vi.fn(), openSyncFolder: vi.fn(), syncNow: vi.fn(), pauseUploads: vi.fn(), pauseUploadsFor: vi.fn(), resumeUploads: vi.fn(), quit: vi.fn(),
});
const labels = (items: MenuItem[]) => Object.fromEntries(items.filter((item) => item.id).map((item) => [item.id, item.label]));

describe('the tray in Dutch and German', () => {
  it('says its state, its tooltip and every menu item in Dutch', async () => {
    const nl = await createTranslator('nl');
    const sync = syncView({ state: 'paused', reasonCode: 'uploads-paused', queuePaused: false });
    const view = trayView(sync, accountView(), null, nl);
    expect(view).toMatchObject({ label: 'Gepauzeerd', tooltip: 'design-sync: Gepauzeerd — Uploads zijn gepauzeerd: hervat ze om je wijzigingen te versturen.' });
    expect(labels(trayMenuTemplate(view, sync, actions(), { startAtLogin: true, setStartAtLogin() {} }, null, nl))).toEqual({
      status: 'Gepauzeerd',
      'open-window': 'design-sync openen',
      'open-folder': 'Synchronisatiemap openen',
      'sync-now': 'Nu synchroniseren',
      pause: 'Uploads pauzeren',
      'pause-hour': '1 uur pauzeren',
      'pause-tomorrow': 'Pauzeren tot morgen (8:00)',
      'start-at-login': 'Starten bij inloggen',
      quit: 'design-sync afsluiten',
    });
    expect(trayView(null, null, null, nl).label).toBe('Bezig met starten');
    // Offline before sync has a state: the connection said in Dutch, the service's address as it is.
    expect(trayView(null, accountView(), connectivity(false, 'The service at https://designs.example cannot be reached.'), nl).tooltip).toBe('design-sync: Offline — De dienst op https://designs.example is niet bereikbaar.');
  });

  it('says its state and menu in German, with Sie, a timed pause and an update waiting', async () => {
    const de = await createTranslator('de');
    const signedOut = trayView(null, accountView({ status: 'signed-out', user: null }), null, de);
    expect(signedOut).toMatchObject({ label: 'Abgemeldet', tooltip: 'design-sync: Abgemeldet – Melden Sie sich an, um Ihre Designs zu synchronisieren.' });
    const until = new Date(Date.now() + 60 * 60_000).toISOString();
    const sync = syncView({ state: 'paused', reasonCode: 'uploads-paused', queuePaused: true, queuePausedUntil: until });
    const updates = { state: 'ready', version: '1.4.0' } as Parameters<typeof trayMenuTemplate>[4];
    const items = labels(trayMenuTemplate(trayView(sync, accountView(), null, de), sync, actions(), undefined, updates, de));
    expect(items.resume).toMatch(/^Uploads fortsetzen \(pausiert bis .*\d\d:\d\d\)$/);
    expect(items['restart-to-update']).toBe('Neu starten und auf 1.4.0 aktualisieren');
    expect(items.quit).toBe('design-sync beenden');
  });
});

describe('the application menu in German', () => {
  it('labels the menus, the roles and Help from the catalogs', async () => {
    const de = await createTranslator('de');
    const menu = appMenuTemplate({ platform: 'darwin', isPackaged: true, serviceUrl: 'https://designs.example', intl: de }, { openServiceSite: vi.fn(), quit: vi.fn() });
    expect(menu.map((item) => item.label)).toEqual(['design-sync', '&Datei', '&Bearbeiten', '&Ansicht', '&Fenster', '&Hilfe']);
    const app = menu[0]!.submenu as MenuItem[];
    expect(app.map((item) => item.label).filter(Boolean)).toEqual(['Über design-sync', 'Dienste', 'design-sync ausblenden', 'Andere ausblenden', 'Alle einblenden', 'design-sync beenden']);
    const edit = menu[2]!.submenu as MenuItem[];
    expect(edit.find((item) => item.role === 'paste')?.label).toBe('Einfügen');
    expect((menu[5]!.submenu as MenuItem[])[0]!.label).toBe('designs.example öffnen');
  });
});

describe('notifications in Dutch and German', () => {
  it('words a burst of failures and a conflict in Dutch, names listed as Dutch lists them', async () => {
    const nl = await createTranslator('nl');
    const policy = createNotificationPolicy(() => nl);
    for (const [id, path] of [[1, 'a/een.stl'], [2, 'a/twee.stl'], [3, 'a/drie.stl']] as const) policy.queueItem(queueEntry({ id, path, state: 'failed', reason: 'refused' }));
    policy.queueItem(queueEntry({ id: 4, path: 'b/tandwiel.stl', state: 'attention', attention: 'conflict', reason: null }));
    expect(policy.flush().map(({ title, body }) => ({ title, body }))).toEqual([
      { title: '3 uploads mislukt', body: 'a/een.stl, a/twee.stl en nog 1. Open design-sync om te zien waarom en het opnieuw te proberen.' },
      { title: 'Conflict', body: 'b/tandwiel.stl. Het is hier en op de dienst gewijzigd: kies wat je wilt houden.' },
    ]);
  });

  it('says a failed upload\'s reason in German from the facts the engine stored, not in its English', async () => {
    const de = await createTranslator('de');
    const policy = createNotificationPolicy(() => de);
    policy.queueItem(queueEntry({
      id: 5, path: 'gear/gear.stl', state: 'failed',
      reason: 'gear/gear.stl is larger than the service accepts: make it smaller, or cancel to leave it out.',
      reasonWords: { id: 'queue.reason.tooLarge', values: { subject: 'gear/gear.stl' } },
    }));
    expect(policy.flush().map(({ title, body }) => ({ title, body }))).toEqual([
      { title: 'Hochladen fehlgeschlagen', body: 'gear/gear.stl: gear/gear.stl ist größer, als der Dienst annimmt: Verkleinern Sie es, oder brechen Sie ab, um es auszulassen.' },
    ]);
  });

  it('words deletions to confirm, a sign-in and a stopped sync in German, in the language of the moment', async () => {
    const [en, de] = await Promise.all([createTranslator('en'), createTranslator('de')]);
    let now = en;
    const policy = createNotificationPolicy(() => now);
    policy.queueItem(queueEntry({ id: 2, kind: 'delete-remote', state: 'attention', attention: 'confirm-delete', path: 'gear/old.stl' }));
    policy.queueItem(queueEntry({ id: 3, kind: 'delete-remote', state: 'attention', attention: 'confirm-delete', path: 'gear/older.stl' }));
    policy.accountChanged(accountView({ status: 'needs-sign-in', reason: null }));
    policy.syncChanged(syncView({ state: 'error', reasonCode: 'folder-unavailable', runState: 'stopped', folder: '/home/ada/Designs', reason: 'gone' }));
    // Changed before the notices were said: they speak German.
    now = de;
    expect(policy.flush().map(({ title, body }) => ({ title, body }))).toEqual([
      { title: 'Synchronisierung angehalten', body: 'Der Synchronisierungsordner /home/ada/Designs ist nicht mehr so, wie er war: Bis er wieder da ist, wird nichts gesendet.' },
      { title: 'Anmeldung erforderlich', body: 'Melden Sie sich erneut an, damit design-sync Ihr Konto erreichen kann.' },
      { title: '2 Löschungen warten auf Bestätigung', body: 'gear/old.stl und gear/older.stl wurden aus dem Synchronisierungsordner entfernt. Auf dem Dienst werden sie erst gelöscht, wenn Sie es bestätigen.' },
    ]);
  });
});

describe('a refused sign-in in Dutch', () => {
  // As the engine sends it: its English reason, and its code, which the shell words.
  const refused = accountView({ status: 'needs-sign-in', reasonCode: 'sign-in-refused', reason: 'The service no longer accepts the sign-in: access was revoked.' });

  it('the tray says it in Dutch, before sync has a state and once it has one', async () => {
    const nl = await createTranslator('nl');
    expect(trayView(null, refused, null, nl)).toMatchObject({
      state: 'signed-out', label: 'Uitgelogd',
      tooltip: 'design-sync: Uitgelogd — De dienst accepteert deze inlog niet meer (de toegang is misschien ingetrokken): log opnieuw in.',
    });
    const sync = syncView({ state: 'signed-out', reasonCode: 'sign-in-refused', reason: 'The service no longer accepts your sign-in: sign in again.' });
    expect(trayView(sync, refused, null, nl).tooltip).toMatch(/^design-sync: Uitgelogd — De dienst accepteert je inlog niet meer: log opnieuw in\./);
  });

  it('the sign-in notification says it in Dutch, not in the engine\'s English', async () => {
    const nl = await createTranslator('nl');
    const policy = createNotificationPolicy(() => nl);
    policy.accountChanged(refused);
    expect(policy.flush().map(({ title, body }) => ({ title, body }))).toEqual([
      { title: 'Opnieuw inloggen nodig', body: 'De dienst accepteert deze inlog niet meer (de toegang is misschien ingetrokken): log opnieuw in.' },
    ]);
  });
});

describe('the notification of an update in Dutch and German', () => {
  it('names the tray\'s own item in each language', async () => {
    const [nl, de] = await Promise.all([createTranslator('nl'), createTranslator('de')]);
    const ready = { state: 'ready', version: '1.4.0' } as Parameters<typeof updateNotice>[1];
    expect(updateNotice(null, ready, nl)).toMatchObject({ title: 'design-sync 1.4.0 staat klaar', body: 'Het wordt geïnstalleerd wanneer je design-sync afsluit. Wil je het nu installeren, kies dan “Herstarten en bijwerken naar 1.4.0” in het systeemvak.' });
    expect(updateNotice(null, ready, de)).toMatchObject({ title: 'design-sync 1.4.0 ist bereit', body: 'Es wird installiert, wenn Sie design-sync beenden. Um es jetzt zu installieren, wählen Sie „Neu starten und auf 1.4.0 aktualisieren“ im Infobereich.' });
  });
});

describe('the shell\'s language', () => {
  it('follows the setting, the system\'s languages when it is system, and says when it changed', async () => {
    const changed = vi.fn();
    const words = createShellWords(changed);
    expect(words.current().formatMessage({ id: 'tray.menu.syncNow' })).toBe('Sync now');
    await words.follow('system', ['fr-FR', 'nl-BE']);
    expect(words.current().formatMessage({ id: 'tray.menu.syncNow' })).toBe('Nu synchroniseren');
    expect(words.current().locale).toBe('nl-BE');
    await words.follow(undefined, ['nl-BE']);
    expect(changed).toHaveBeenCalledOnce();
    await words.follow('de', ['nl-BE']);
    expect(words.current().formatMessage({ id: 'tray.menu.syncNow' })).toBe('Jetzt synchronisieren');
    expect(changed).toHaveBeenCalledTimes(2);
  });

  it('keeps the last language asked for when two changes cross', async () => {
    const words = createShellWords(() => {});
    await Promise.all([words.follow('de', []), words.follow('nl', [])]);
    expect(words.current().formatMessage({ id: 'tray.menu.quit' })).toBe('design-sync afsluiten');
  });
});
