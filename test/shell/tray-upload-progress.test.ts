import { describe, expect, it, vi } from 'vitest';
import { trayView } from '../../electron/shell/tray/tray-state';
import { accountView, syncView } from './shell-fixtures';

// The code under test needs none of Electron; loading the real module (which downloads its binary) fails the test.
vi.mock('electron', () => {
  throw new Error('the real electron module must not be loaded in tests');
});

const MB = 1024 * 1024;
const uploads = { filesDone: 2, filesSending: 1, filesTotal: 7, bytesSent: 12 * MB, bytesTotal: 40 * MB, bytesPerSecond: 1.4 * MB, secondsLeft: 20 };

describe('the tray while files are uploaded', () => {
  it('says in its tooltip which file of the burst, the bytes and the time left, in the window\'s words', () => {
    const sync = syncView({ state: 'syncing', reasonCode: 'sending', reason: '5 changes to send.', bytesSent: MB, bytesTotal: 4 * MB, uploads });
    // The percentage is the burst's too, so that the label and the line agree.
    expect(trayView(sync, accountView())).toMatchObject({ state: 'syncing', label: 'Syncing 30%', tooltip: 'design-sync: Syncing 30% — Uploading 3 of 7 · 12 MB of 40 MB · about 20 s left' });
  });

  it('gives the state\'s own reason when the uploads wait (paused) or nothing is uploaded', () => {
    expect(trayView(syncView({ state: 'paused', reasonCode: 'uploads-paused', reason: 'Uploads are paused: resume to send your changes.', uploads }), accountView()).tooltip).toBe('design-sync: Paused — Uploads are paused: resume to send your changes.');
    expect(trayView(syncView({ state: 'syncing', reasonCode: 'looking', reason: 'Looking for changes.', uploads: null }), accountView()).tooltip).toBe('design-sync: Syncing — Looking for changes.');
  });
});
