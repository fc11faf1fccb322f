/**
 * Whether an action the window offers can run now, and if not, why, in the window's words. Pure: the views read the
 * state through `useAvailability` (use-availability.ts) and ask here, so that every view says the same thing.
 *
 * What each action needs:
 *  - the service at once: creating, publishing and deleting a design, the service's search, pulling the catalogue
 *    (docs/sync.md: only edits of a design's fields are kept for later);
 *  - a sign-in: everything done to the person's own designs, edits included;
 *  - nothing but a chosen service: opening a design's page (the browser asks the service, not the window), signing in;
 *  - a sign-in and a sync folder: adding files to a design (they go into its folder, and the queue uploads them);
 *  - nothing at all: the person's decisions on the queue's items (retry, cancel, confirm a deletion or a new design,
 *    settle a conflict) are recorded by the engine and carried out by the queue once it can.
 * An edit made while the service cannot be reached is kept by the queue: it stays offered and says it will wait.
 */

import { ENGLISH_INTL, type Words } from '../../../shared/i18n/create-intl';
import type { MessageId } from '../../../shared/i18n/messages';

export type WindowAction =
  | 'create-design'
  | 'edit-design'
  | 'publish-design'
  | 'delete-design'
  | 'search-service'
  | 'pull-catalogue'
  | 'sign-in'
  | 'open-page'
  | 'add-files'
  | 'sync-now'
  | 'queue-decision';

export interface WindowState {
  /** Who is signed in, as the account store knows it (null: not known yet). */
  account: 'signed-in' | 'signed-out' | 'needs-sign-in' | null;
  /** Whether a service address is chosen (null: not known yet). */
  serviceChosen: boolean | null;
  /** Whether the service answers (null: nothing said yet, taken as reachable). */
  online: boolean | null;
  /** Whether the window is linked to design-sync (the host may have stopped). */
  linked: boolean;
  /** Whether a sync folder is chosen (null: not known yet, taken as chosen). */
  syncFolder?: boolean | null;
}

/** Why an action cannot run now, from what the person can least do about to most. */
export type Blocker = 'disconnected' | 'no-service' | 'signed-out' | 'needs-sign-in' | 'no-sync-folder' | 'offline';

export type Availability =
  /** `waits`: done here and sent by the queue when the service is back; `note` says so (or warns), in words. */
  | { enabled: true; waits: boolean; note: string | null }
  | { enabled: false; blocker: Blocker; reason: string };

interface ActionNeeds {
  /** true: refused while signed out; 'queued': offered, and carried out once signed in; false: not needed. */
  signIn: boolean | 'queued';
  syncFolder?: boolean;
  /** 'now': refused while offline; 'queued': kept and sent later; 'none': the window does not need it. */
  service: 'now' | 'queued' | 'none';
  /** The action as a subject ("publishing") and after "to" ("publish it"), in the catalogs. */
  doing: MessageId;
  to: MessageId;
  /** An action on "it" (the design): "edit, publish or delete it" says the design once. */
  verbOnIt?: MessageId;
}

const NEEDS: Record<WindowAction, ActionNeeds> = {
  'create-design': { signIn: true, service: 'now', doing: 'availability.doing.createDesign', to: 'availability.to.createDesign' },
  'edit-design': { signIn: true, service: 'queued', doing: 'availability.doing.editDesign', to: 'availability.to.editDesign', verbOnIt: 'availability.verb.editDesign' },
  'publish-design': { signIn: true, service: 'now', doing: 'availability.doing.publishDesign', to: 'availability.to.publishDesign', verbOnIt: 'availability.verb.publishDesign' },
  'delete-design': { signIn: true, service: 'now', doing: 'availability.doing.deleteDesign', to: 'availability.to.deleteDesign', verbOnIt: 'availability.verb.deleteDesign' },
  'search-service': { signIn: false, service: 'now', doing: 'availability.doing.searchService', to: 'availability.to.searchService' },
  'pull-catalogue': { signIn: false, service: 'now', doing: 'availability.doing.pullCatalogue', to: 'availability.to.pullCatalogue' },
  'sign-in': { signIn: false, service: 'none', doing: 'availability.doing.signIn', to: 'availability.to.signIn' },
  'open-page': { signIn: false, service: 'none', doing: 'availability.doing.openPage', to: 'availability.to.openPage' },
  'add-files': { signIn: true, syncFolder: true, service: 'queued', doing: 'availability.doing.addFiles', to: 'availability.to.addFiles' },
  'sync-now': { signIn: true, syncFolder: true, service: 'now', doing: 'availability.doing.syncNow', to: 'availability.to.syncNow' },
  'queue-decision': { signIn: 'queued', service: 'queued', doing: 'availability.doing.queueDecision', to: 'availability.to.queueDecision' },
};

/** Said beside what saves an edit while the service cannot be reached (English; `availability.note.waits` in the catalogs). */
export const WAITS_NOTE = ENGLISH_INTL.formatMessage({ id: 'availability.note.waits' });
/** Said beside what starts an edit while the service cannot be reached. */
export const EDITS_WAIT_NOTE = ENGLISH_INTL.formatMessage({ id: 'availability.note.editsWait' });
/** Said beside what adds files while the service cannot be reached. */
export const FILES_WAIT_NOTE = ENGLISH_INTL.formatMessage({ id: 'availability.note.filesWait' });
/** Said beside the queue's decisions while they cannot be carried out yet. */
export const DECISIONS_WAIT_NOTE = ENGLISH_INTL.formatMessage({ id: 'availability.note.decisionsWait' });
export const DECISIONS_WAIT_SIGN_IN_NOTE = ENGLISH_INTL.formatMessage({ id: 'availability.note.decisionsWaitSignIn' });

/** What stops `action` now, or null when nothing does. */
export function blockerOf(action: WindowAction, state: WindowState): Blocker | null {
  const needs = NEEDS[action];
  if (!state.linked) return 'disconnected';
  if (action === 'queue-decision') return null;
  if (state.serviceChosen === false) return 'no-service';
  if (needs.signIn === true && state.account !== null && state.account !== 'signed-in') return state.account;
  if (needs.syncFolder && state.syncFolder === false) return 'no-sync-folder';
  if (needs.service === 'now' && state.online === false) return 'offline';
  return null;
}

/**
 * Can `action` run now; if not, why, and if it runs but waits or may not work, a note saying so: in the language of
 * `intl` (the window's, through useAvailability; English by default).
 */
export function availability(action: WindowAction, state: WindowState, intl: Words = ENGLISH_INTL): Availability {
  const blocker = blockerOf(action, state);
  if (blocker) return { enabled: false, blocker, reason: reasonFor(blocker, [action], intl) };
  const offline = state.online === false;
  const needs = NEEDS[action].service;
  const note = (id: MessageId) => intl.formatMessage({ id });
  if (action === 'queue-decision') {
    if (state.account !== null && state.account !== 'signed-in') return { enabled: true, waits: true, note: note('availability.note.decisionsWaitSignIn') };
    return offline ? { enabled: true, waits: true, note: note('availability.note.decisionsWait') } : { enabled: true, waits: false, note: null };
  }
  if (offline && action === 'add-files') return { enabled: true, waits: true, note: note('availability.note.filesWait') };
  if (offline && needs === 'queued') return { enabled: true, waits: true, note: note('availability.note.waits') };
  if (offline && action === 'open-page') return { enabled: true, waits: false, note: note('availability.note.pageMayNotLoad') };
  if (offline && action === 'sign-in') return { enabled: true, waits: false, note: note('availability.note.signInNeedsService') };
  return { enabled: true, waits: false, note: null };
}

/** The note said beside what starts an edit while the service cannot be reached, in the language of `intl`. */
export function editsWaitNote(intl: Words = ENGLISH_INTL): string {
  return intl.formatMessage({ id: 'availability.note.editsWait' });
}

/**
 * One sentence per reason for the actions that cannot run ("Publishing and deleting need the service, which cannot be
 * reached now."), so that a row of buttons says why once; null when they all can.
 */
export function whyUnavailable(actions: readonly WindowAction[], state: WindowState, intl: Words = ENGLISH_INTL): string | null {
  const byBlocker = new Map<Blocker, WindowAction[]>();
  for (const action of actions) {
    const blocker = blockerOf(action, state);
    if (blocker) byBlocker.set(blocker, [...(byBlocker.get(blocker) ?? []), action]);
  }
  if (byBlocker.size === 0) return null;
  return [...byBlocker].map(([blocker, blocked]) => reasonFor(blocker, blocked, intl)).join(' ');
}

function reasonFor(blocker: Blocker, actions: WindowAction[], intl: Words): string {
  switch (blocker) {
    case 'disconnected': return intl.formatMessage({ id: 'availability.disconnected' });
    case 'no-service': return intl.formatMessage({ id: 'availability.noService' });
    case 'signed-out': return intl.formatMessage({ id: 'availability.signedOut' }, { actions: toWords(actions, intl) });
    case 'needs-sign-in': return intl.formatMessage({ id: 'availability.needsSignIn' }, { actions: toWords(actions, intl) });
    case 'no-sync-folder': return intl.formatMessage({ id: 'availability.noSyncFolder' }, { actions: toWords(actions, intl) });
    case 'offline': {
      const doing = intl.formatList(actions.map((action) => intl.formatMessage({ id: NEEDS[action].doing })), { type: 'conjunction' });
      return sentenceStart(intl.formatMessage({ id: 'availability.offline' }, { actions: doing, count: actions.length }), intl);
    }
  }
}

/**
 * What the actions would do, after "Sign in to": "edit it, publish it or search the service"; said shorter when every
 * one is done to the design ("edit, publish or delete it", "es zu bearbeiten, zu veröffentlichen oder zu löschen").
 */
function toWords(actions: WindowAction[], intl: Words): string {
  const onIt = actions.map((action) => NEEDS[action].verbOnIt);
  if (actions.length > 1 && onIt.every((verb) => verb !== undefined)) {
    const verbs = intl.formatList(onIt.map((verb) => intl.formatMessage({ id: verb! })), { type: 'disjunction' });
    return intl.formatMessage({ id: 'availability.toIt' }, { verbs });
  }
  return intl.formatList(actions.map((action) => intl.formatMessage({ id: NEEDS[action].to })), { type: 'disjunction' });
}

/** A sentence that starts with a list of what is done ("publishing and deleting need…") starts with a capital. */
function sentenceStart(sentence: string, intl: Words): string {
  return sentence.charAt(0).toLocaleUpperCase(intl.locale) + sentence.slice(1);
}
