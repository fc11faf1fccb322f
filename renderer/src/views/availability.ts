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
  /** The action as a subject ("Publishing") and after "to" ("publish it"). */
  doing: string;
  to: string;
}

const NEEDS: Record<WindowAction, ActionNeeds> = {
  'create-design': { signIn: true, service: 'now', doing: 'Creating a design', to: 'create a design' },
  'edit-design': { signIn: true, service: 'queued', doing: 'Editing', to: 'edit it' },
  'publish-design': { signIn: true, service: 'now', doing: 'Publishing', to: 'publish it' },
  'delete-design': { signIn: true, service: 'now', doing: 'Deleting', to: 'delete it' },
  'search-service': { signIn: false, service: 'now', doing: 'The service\'s search', to: 'search the service' },
  'pull-catalogue': { signIn: false, service: 'now', doing: 'Pulling the catalogue', to: 'pull the catalogue' },
  'sign-in': { signIn: false, service: 'none', doing: 'Signing in', to: 'sign in' },
  'open-page': { signIn: false, service: 'none', doing: 'Opening the page', to: 'open the page' },
  'add-files': { signIn: true, syncFolder: true, service: 'queued', doing: 'Adding files', to: 'add files' },
  'sync-now': { signIn: true, syncFolder: true, service: 'now', doing: 'Syncing now', to: 'sync now' },
  'queue-decision': { signIn: 'queued', service: 'queued', doing: 'Deciding', to: 'decide' },
};

/** Said beside what saves an edit while the service cannot be reached. */
export const WAITS_NOTE = 'Saved here; sent when the service is back.';
/** Said beside what starts an edit while the service cannot be reached. */
export const EDITS_WAIT_NOTE = 'Edits are saved here and sent when the service is back.';
/** Said beside what adds files while the service cannot be reached. */
export const FILES_WAIT_NOTE = 'Files added now go into the design\'s folder and are uploaded when the service is back.';
/** Said beside the queue's decisions while they cannot be carried out yet. */
export const DECISIONS_WAIT_NOTE = 'Decisions are recorded now and carried out when the service is back.';
export const DECISIONS_WAIT_SIGN_IN_NOTE = 'Decisions are recorded now and carried out once you sign in.';

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

/** Can `action` run now; if not, why, and if it runs but waits or may not work, a note saying so. */
export function availability(action: WindowAction, state: WindowState): Availability {
  const blocker = blockerOf(action, state);
  if (blocker) return { enabled: false, blocker, reason: reasonFor(blocker, [action]) };
  const offline = state.online === false;
  const needs = NEEDS[action].service;
  if (action === 'queue-decision') {
    if (state.account !== null && state.account !== 'signed-in') return { enabled: true, waits: true, note: DECISIONS_WAIT_SIGN_IN_NOTE };
    return offline ? { enabled: true, waits: true, note: DECISIONS_WAIT_NOTE } : { enabled: true, waits: false, note: null };
  }
  if (offline && action === 'add-files') return { enabled: true, waits: true, note: FILES_WAIT_NOTE };
  if (offline && needs === 'queued') return { enabled: true, waits: true, note: WAITS_NOTE };
  if (offline && action === 'open-page') return { enabled: true, waits: false, note: 'The service cannot be reached now: the page may not load.' };
  if (offline && action === 'sign-in') return { enabled: true, waits: false, note: 'The service cannot be reached now: signing in needs it.' };
  return { enabled: true, waits: false, note: null };
}

/**
 * One sentence per reason for the actions that cannot run ("Publishing and deleting need the service, which cannot be
 * reached now."), so that a row of buttons says why once; null when they all can.
 */
export function whyUnavailable(actions: readonly WindowAction[], state: WindowState): string | null {
  const byBlocker = new Map<Blocker, WindowAction[]>();
  for (const action of actions) {
    const blocker = blockerOf(action, state);
    if (blocker) byBlocker.set(blocker, [...(byBlocker.get(blocker) ?? []), action]);
  }
  if (byBlocker.size === 0) return null;
  return [...byBlocker].map(([blocker, blocked]) => reasonFor(blocker, blocked)).join(' ');
}

function reasonFor(blocker: Blocker, actions: WindowAction[]): string {
  switch (blocker) {
    case 'disconnected':
      return 'This window lost its connection to design-sync; it reconnects by itself.';
    case 'no-service':
      return 'No service is chosen yet: choose one in Library or Settings first.';
    case 'signed-out':
      return `Sign in to ${joined(actions.map((action) => NEEDS[action].to), 'or')}.`;
    case 'needs-sign-in':
      return `Sign in again to ${joined(actions.map((action) => NEEDS[action].to), 'or')}: the service no longer accepts the last sign-in.`;
    case 'no-sync-folder':
      return `Choose a sync folder in Sync to ${joined(actions.map((action) => NEEDS[action].to), 'or')}.`;
    case 'offline': {
      const doing = joined(actions.map((action, index) => (index === 0 ? NEEDS[action].doing : NEEDS[action].doing.toLowerCase())), 'and');
      return `${doing} ${actions.length === 1 ? 'needs' : 'need'} the service, which cannot be reached now.`;
    }
  }
}

/** "edit it, publish it or delete it" said shorter: "edit, publish or delete it" when each ends the same way. */
function joined(parts: string[], conjunction: 'and' | 'or'): string {
  const tails = new Set(parts.map((part) => part.split(' ').slice(1).join(' ')));
  const shared = tails.size === 1 && parts.length > 1 ? [...tails][0]! : '';
  const heads = shared ? parts.map((part) => part.split(' ')[0]!) : parts;
  const list = heads.length <= 1 ? heads.join('') : `${heads.slice(0, -1).join(', ')} ${conjunction} ${heads[heads.length - 1]}`;
  return shared ? `${list} ${shared}` : list;
}
