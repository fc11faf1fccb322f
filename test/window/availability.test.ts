import { describe, expect, it } from 'vitest';
import { createTranslator } from '../../shared/i18n/create-intl';
import {
  availability, DECISIONS_WAIT_NOTE, DECISIONS_WAIT_SIGN_IN_NOTE, FILES_WAIT_NOTE, whyUnavailable, WAITS_NOTE, type WindowAction, type WindowState,
} from '../../renderer/src/views/availability';

const online: WindowState = { account: 'signed-in', serviceChosen: true, online: true, linked: true };
const offline: WindowState = { ...online, online: false };
const signedOut: WindowState = { ...online, account: 'signed-out' };

const NEEDS_SERVICE_NOW: WindowAction[] = ['create-design', 'publish-design', 'delete-design', 'search-service', 'pull-catalogue', 'sync-now'];
const ALL: WindowAction[] = [...NEEDS_SERVICE_NOW, 'edit-design', 'sign-in', 'open-page', 'add-files', 'queue-decision'];

describe('whether a window action can run now, and why not', () => {
  it('offers everything, with nothing to say, when signed in and the service answers', () => {
    for (const action of ALL) expect(availability(action, online)).toEqual({ enabled: true, waits: false, note: null });
  });

  it('takes a state not known yet (no account, no connectivity heard) as able: nothing is refused on a guess', () => {
    const unknown: WindowState = { account: null, serviceChosen: null, online: null, linked: true };
    for (const action of ALL) expect(availability(action, unknown).enabled).toBe(true);
  });

  it('offline: refuses what needs the service at once, saying it cannot be reached; an edit stays and says it will wait', () => {
    for (const action of NEEDS_SERVICE_NOW) {
      const refused = availability(action, offline);
      expect(refused).toMatchObject({ enabled: false, blocker: 'offline' });
      expect(refused.enabled ? '' : refused.reason).toMatch(/needs the service, which cannot be reached now\.$/);
    }
    expect(availability('publish-design', offline)).toMatchObject({ reason: 'Publishing needs the service, which cannot be reached now.' });
    expect(availability('edit-design', offline)).toEqual({ enabled: true, waits: true, note: WAITS_NOTE });
    expect(WAITS_NOTE).toBe('Saved here; sent when the service is back.');
  });

  it('offline: opening the design\'s page and signing in stay offered, warning that the service is out of reach', () => {
    for (const action of ['open-page', 'sign-in'] as const) {
      const offered = availability(action, offline);
      expect(offered).toMatchObject({ enabled: true, waits: false });
      expect(offered.enabled && offered.note).toMatch(/cannot be reached/);
    }
  });

  it('signed out: refuses everything done to one\'s own designs, edits included, saying to sign in; browsing stays', () => {
    for (const action of ['create-design', 'edit-design', 'publish-design', 'delete-design', 'add-files', 'sync-now'] as const) {
      expect(availability(action, signedOut)).toMatchObject({ enabled: false, blocker: 'signed-out', reason: expect.stringMatching(/^Sign in to /) });
    }
    for (const action of ['search-service', 'pull-catalogue', 'sign-in', 'open-page'] as const) expect(availability(action, signedOut).enabled).toBe(true);
  });

  it('a refused sign-in asks for a new one, and says why', () => {
    expect(availability('publish-design', { ...online, account: 'needs-sign-in' })).toEqual({
      enabled: false, blocker: 'needs-sign-in', reason: 'Sign in again to publish it: the service no longer accepts the last sign-in.',
    });
  });

  it('says first what the person must do first: sign in before waiting for the service, a service before signing in', () => {
    expect(availability('delete-design', { ...signedOut, online: false })).toMatchObject({ blocker: 'signed-out' });
    expect(availability('delete-design', { ...signedOut, serviceChosen: false })).toMatchObject({
      blocker: 'no-service', reason: 'No service is chosen yet: choose one in Library or Settings first.',
    });
    expect(availability('sign-in', { ...online, serviceChosen: false })).toMatchObject({ enabled: false, blocker: 'no-service' });
  });

  it('refuses everything while the window has lost its link to design-sync', () => {
    for (const action of ALL) expect(availability(action, { ...online, linked: false })).toMatchObject({ enabled: false, blocker: 'disconnected' });
  });

  it('says why once for a row of buttons, one sentence per reason', () => {
    const row: WindowAction[] = ['edit-design', 'publish-design', 'delete-design'];
    expect(whyUnavailable(row, online)).toBeNull();
    expect(whyUnavailable(row, signedOut)).toBe('Sign in to edit, publish or delete it.');
    expect(whyUnavailable(row, offline)).toBe('Publishing and deleting need the service, which cannot be reached now.');
    expect(whyUnavailable(['create-design', 'pull-catalogue'], offline)).toBe('Creating a design and pulling the catalogue need the service, which cannot be reached now.');
    expect(whyUnavailable(['edit-design', 'pull-catalogue'], { ...signedOut, online: false }))
      .toBe('Sign in to edit it. Pulling the catalogue needs the service, which cannot be reached now.');
  });

  it('adding files needs a sign-in and a sync folder, saying which; offline it is offered and says the upload waits', () => {
    expect(availability('add-files', signedOut)).toEqual({ enabled: false, blocker: 'signed-out', reason: 'Sign in to add files.' });
    expect(availability('add-files', { ...online, syncFolder: false })).toEqual({
      enabled: false, blocker: 'no-sync-folder', reason: 'Choose a sync folder in Sync to add files.',
    });
    // Signing in comes first: without it no sync folder would help.
    expect(availability('add-files', { ...signedOut, syncFolder: false })).toMatchObject({ blocker: 'signed-out' });
    expect(availability('add-files', { ...online, syncFolder: null })).toMatchObject({ enabled: true });
    expect(availability('add-files', offline)).toEqual({ enabled: true, waits: true, note: FILES_WAIT_NOTE });
    expect(FILES_WAIT_NOTE).toMatch(/uploaded when the service is back\.$/);
  });

  it('"Sync now" asks the service at once: off offline or without a sync folder, saying why', () => {
    expect(availability('sync-now', offline)).toMatchObject({ enabled: false, reason: 'Syncing now needs the service, which cannot be reached now.' });
    expect(availability('sync-now', { ...online, syncFolder: false })).toMatchObject({ reason: 'Choose a sync folder in Sync to sync now.' });
  });

  it('decisions on the queue\'s items stay offered offline and signed out, saying they are carried out later', () => {
    expect(availability('queue-decision', offline)).toEqual({ enabled: true, waits: true, note: DECISIONS_WAIT_NOTE });
    expect(availability('queue-decision', signedOut)).toEqual({ enabled: true, waits: true, note: DECISIONS_WAIT_SIGN_IN_NOTE });
    expect(availability('queue-decision', { ...signedOut, online: false, serviceChosen: false })).toMatchObject({ enabled: true, waits: true });
    expect(availability('queue-decision', { ...online, linked: false })).toMatchObject({ enabled: false, blocker: 'disconnected' });
    expect(DECISIONS_WAIT_NOTE).toBe('Decisions are recorded now and carried out when the service is back.');
  });
});

describe('why an action cannot run, in the window\'s language', () => {
  const row: WindowAction[] = ['edit-design', 'publish-design', 'delete-design'];

  it('says what sign-in would allow as one sentence, the design named once', async () => {
    expect(whyUnavailable(row, signedOut, await createTranslator('de'))).toBe('Melden Sie sich an, um es zu bearbeiten, zu veröffentlichen oder zu löschen.');
    expect(whyUnavailable(row, signedOut, await createTranslator('nl'))).toBe('Log in om het te bewerken, te publiceren of te verwijderen.');
    expect(whyUnavailable(['edit-design', 'pull-catalogue'], { ...signedOut, online: false }, await createTranslator('nl')))
      .toBe('Log in om het te bewerken. De catalogus ophalen heeft de dienst nodig, die nu niet bereikbaar is.');
  });

  it('says what needs the service with the verb agreeing, starting with a capital', async () => {
    expect(whyUnavailable(row, offline, await createTranslator('de'))).toBe('Das Veröffentlichen und das Löschen brauchen den Dienst, der gerade nicht erreichbar ist.');
    expect(whyUnavailable(['create-design'], offline, await createTranslator('nl'))).toBe('Een ontwerp maken heeft de dienst nodig, die nu niet bereikbaar is.');
  });

  it('says that an edit waits, in the language', async () => {
    expect(availability('edit-design', offline, await createTranslator('de')))
      .toEqual({ enabled: true, waits: true, note: 'Hier gespeichert; wird gesendet, sobald der Dienst wieder erreichbar ist.' });
  });
});
