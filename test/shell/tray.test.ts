import { existsSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it, vi } from 'vitest';
import { trayMenuTemplate, type TrayMenuActions } from '../../electron/shell/tray/tray-menu';
import { TRAY_STATES, trayView } from '../../electron/shell/tray/tray-state';
import { SYNC_STATE_LABELS } from '../../shared';
import { accountView, connectivity, syncView } from './shell-fixtures';

// The code under test needs only Electron's types; loading the real module (which downloads its binary) fails the test.
vi.mock('electron', () => {
  throw new Error('the real electron module must not be loaded in tests');
});

const ICONS = join(import.meta.dirname, '../../electron/shell/tray/icons');

describe('the tray\'s state', () => {
  it('says what the window\'s status pill says, progress included', () => {
    expect(trayView(syncView(), accountView())).toMatchObject({ state: 'up-to-date', label: 'Up to date', tooltip: 'design-sync: Up to date', iconName: 'tray-up-to-date' });
    expect(trayView(syncView({ state: 'syncing', bytesSent: 42, bytesTotal: 100 }), accountView())).toMatchObject({ state: 'syncing', label: 'Syncing 42%' });
    expect(trayView(syncView({ state: 'paused', reason: 'Uploads are paused.' }), accountView())).toMatchObject({ state: 'paused', label: SYNC_STATE_LABELS.paused, tooltip: 'design-sync: Paused — Uploads are paused.' });
    expect(trayView(syncView({ state: 'not-set-up', folder: null }), accountView())).toMatchObject({ state: 'not-set-up', label: 'Sync not set up' });
  });

  it('never hides an error: it beats sign-in, offline and attention', () => {
    const error = syncView({ state: 'error', reason: 'The sync folder /home/ada/Designs is gone.' });
    for (const account of [accountView(), accountView({ status: 'needs-sign-in' }), accountView({ status: 'signed-out', user: null })]) {
      expect(trayView(error, account, connectivity(false)), account.status).toMatchObject({ state: 'error', label: 'Error', tooltip: 'design-sync: Error — The sync folder /home/ada/Designs is gone.', iconName: 'tray-error' });
    }
  });

  it('asks for the person when sync waits for them or the sign-in expired', () => {
    expect(trayView(syncView({ state: 'attention', reasonCode: 'items-need-you', reason: '2 changes wait for you in the queue.', counts: { ...syncView().counts, attention: 2 } }), accountView())).toMatchObject({ state: 'needs-attention', label: 'Waiting for you', tooltip: 'design-sync: Waiting for you — 2 changes wait for you in the queue.' });
    const refused = syncView({ state: 'signed-out', reasonCode: 'sign-in-refused', reason: 'The service no longer accepts your sign-in: sign in again.' });
    expect(trayView(refused, accountView({ status: 'needs-sign-in', reason: 'The service refused the sign-in.' }))).toMatchObject({ state: 'signed-out', tooltip: expect.stringContaining('no longer accepts your sign-in') });
  });

  it('says signed out, then offline, with the reason, as the sync status says', () => {
    expect(trayView(syncView({ state: 'signed-out', reasonCode: 'signed-out', reason: 'Sign in to sync your designs.' }), accountView({ status: 'signed-out', user: null }))).toMatchObject({ state: 'signed-out', label: 'Signed out', iconName: 'tray-signed-out' });
    expect(trayView(syncView({ state: 'offline', reasonCode: 'service-unreachable', detail: 'The service cannot be reached.', reason: 'The service cannot be reached. Changes are kept and sent when it is back.' }), accountView(), connectivity(false, 'The service cannot be reached.'))).toMatchObject({ state: 'offline', label: 'Offline', tooltip: 'design-sync: Offline — The service cannot be reached. Changes are kept and sent when it is back.' });
    expect(trayView(null, null, connectivity(false, 'The service cannot be reached.'))).toMatchObject({ state: 'offline', label: 'Offline' });
  });

  it('says it is starting before the engine has spoken', () => {
    expect(trayView(null)).toMatchObject({ state: 'not-set-up', label: 'Starting' });
  });

  it('keeps the tooltip within Windows\' 127 characters, on one line', () => {
    const { tooltip } = trayView(syncView({ state: 'error', reason: `A very long reason\nacross lines ${'x'.repeat(300)}` }));
    expect(tooltip.length).toBeLessThanOrEqual(127);
    expect(tooltip).not.toContain('\n');
    expect(tooltip.endsWith('…')).toBe(true);
  });

  it('has a 16 px icon and its 32 px @2x twin for every state', async () => {
    for (const state of TRAY_STATES) {
      for (const [suffix, size] of [['', 16], ['@2x', 32]] as const) {
        const file = join(ICONS, `tray-${state}${suffix}.png`);
        expect(existsSync(file), file).toBe(true);
        expect(await sharp(file).metadata(), file).toMatchObject({ format: 'png', width: size, height: size, hasAlpha: true });
      }
    }
  });
});

describe('the tray\'s menu', () => {
  const actions = (): TrayMenuActions => ({ openWindow: vi.fn(), openSyncFolder: vi.fn(), syncNow: vi.fn(), pauseUploads: vi.fn(), resumeUploads: vi.fn(), quit: vi.fn() });
  const item = (template: ReturnType<typeof trayMenuTemplate>, id: string) => template.find((entry) => entry.id === id)!;
  const click = (entry: { click?: unknown }) => (entry.click as () => void)();

  it('shows the state, opens the window and the sync folder, syncs now, pauses uploads and quits', () => {
    const sync = syncView({ state: 'syncing', bytesSent: 1, bytesTotal: 4 });
    const handlers = actions();
    const template = trayMenuTemplate(trayView(sync), sync, handlers);
    expect(template.map((entry) => entry.id ?? entry.type)).toEqual(['status', 'separator', 'open-window', 'open-folder', 'sync-now', 'separator', 'pause', 'separator', 'quit']);
    expect(item(template, 'status')).toMatchObject({ label: 'Syncing 25%', enabled: false });
    click(item(template, 'open-window'));
    click(item(template, 'open-folder'));
    click(item(template, 'sync-now'));
    click(item(template, 'pause'));
    click(item(template, 'quit'));
    expect(handlers.openWindow).toHaveBeenCalledOnce();
    expect(handlers.openSyncFolder).toHaveBeenCalledWith('/home/ada/Designs');
    expect(handlers.syncNow).toHaveBeenCalledOnce();
    expect(handlers.pauseUploads).toHaveBeenCalledOnce();
    expect(handlers.quit).toHaveBeenCalledOnce();
  });

  it('offers to resume when uploads are paused', () => {
    const sync = syncView({ state: 'paused', queuePaused: true });
    const handlers = actions();
    const template = trayMenuTemplate(trayView(sync), sync, handlers);
    expect(item(template, 'pause')).toBeUndefined();
    expect(item(template, 'resume')).toMatchObject({ label: 'Resume uploads', enabled: true });
    click(item(template, 'resume'));
    expect(handlers.resumeUploads).toHaveBeenCalledOnce();
  });

  it('greys out the folder, syncing now and pausing while there is no sync folder', () => {
    const sync = syncView({ state: 'not-set-up', folder: null });
    const handlers = actions();
    const template = trayMenuTemplate(trayView(sync), sync, handlers);
    expect(item(template, 'open-folder').enabled).toBe(false);
    expect(item(template, 'pause').enabled).toBe(false);
    expect(item(template, 'sync-now').enabled).toBe(false);
    click(item(template, 'open-folder'));
    click(item(template, 'sync-now'));
    expect(handlers.openSyncFolder).not.toHaveBeenCalled();
    expect(handlers.syncNow).not.toHaveBeenCalled();
    expect(trayMenuTemplate(trayView(null), null, handlers).find((entry) => entry.id === 'open-folder')?.enabled).toBe(false);
  });
});
