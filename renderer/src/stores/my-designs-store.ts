import { create } from 'zustand';
import type { ContractEvents, ContractProblem, FieldErrors, LicenseCode, OwnDesignView } from '../../../shared';
import { contract } from '../contract/contract';
import { windowIntl } from '../i18n/window-intl';
import { problemWords } from '../views/problem-words';

export interface DesignFormFields {
  name: string;
  excerpt: string;
  license: LicenseCode;
  description: string;
  /** The cover image (editing only: a new design has no images yet); null for none. */
  primaryImageId?: number | null;
}

/**
 * What a save ended with: done, or the problem. The form says each field error beside its field with the window's
 * label; `message` is the whole problem in the window's words (labels, never the service's field names).
 */
export type SaveResult = { ok: true } | { ok: false; message: string; fieldErrors: FieldErrors };

const failed = (problem: ContractProblem): SaveResult => ({ ok: false, message: problemWords(problem, windowIntl()), fieldErrors: problem.kind === 'validation' ? problem.fieldErrors : {} });

interface MyDesignsStore {
  items: OwnDesignView[] | null;
  /** Why the list could not be read. */
  listProblem: string | null;
  /** What the person's last publish or delete ended with when it failed: kept until dismissed or another succeeds. */
  problem: string | null;
  /** Reads the list as the view opens: what an earlier visit said is gone. */
  load(): Promise<void>;
  /** Reads the list again (another user signed in): a failed action's problem stays shown. */
  refresh(): Promise<void>;
  dismissProblem(): void;
  create(fields: DesignFormFields): Promise<SaveResult>;
  update(id: number, fields: DesignFormFields): Promise<SaveResult>;
  publish(id: number): Promise<void>;
  remove(id: number): Promise<void>;
}

type OwnChangeEvent = ContractEvents['own.changed'];
const changesDuringLoad = new Set<OwnChangeEvent[]>();

export const useMyDesigns = create<MyDesignsStore>((set, get) => {
  const replace = (view: OwnDesignView) => set((state) => ({
    items: [view, ...(state.items ?? []).filter((item) => item.card.id !== view.card.id)],
    problem: null,
  }));
  return {
    items: null,
    listProblem: null,
    problem: null,
    async load() {
      set({ problem: null });
      await get().refresh();
    },
    async refresh() {
      const arrived: OwnChangeEvent[] = [];
      changesDuringLoad.add(arrived);
      const outcome = await contract.request('own.list', {});
      changesDuringLoad.delete(arrived);
      // Changes told while the list was read may be newer than it: applied on top.
      const items = outcome.ok ? arrived.reduce((list, change) => applyOwnChange(list, change.designs, change.removed), outcome.value) : null;
      set(items ? { items, listProblem: null } : { listProblem: outcome.ok ? null : problemWords(outcome.problem, windowIntl()) });
    },
    dismissProblem() {
      set({ problem: null });
    },
    /** A new design is a draft: publishing is a separate, explicit step (rule 4). */
    async create(fields) {
      const { primaryImageId: _cover, ...createFields } = fields;
      const outcome = await contract.request('own.create', createFields);
      if (!outcome.ok) return failed(outcome.problem);
      replace(outcome.value);
      return { ok: true };
    },
    async update(id, fields) {
      const outcome = await contract.request('own.update', { id, ...fields });
      if (!outcome.ok) return failed(outcome.problem);
      replace(outcome.value);
      return { ok: true };
    },
    async publish(id) {
      const outcome = await contract.request('own.publish', { id });
      if (outcome.ok) replace(outcome.value);
      else set({ problem: problemWords(outcome.problem, windowIntl()) });
    },
    async remove(id) {
      const outcome = await contract.request('own.delete', { id, confirm: true });
      if (outcome.ok) set({ items: (get().items ?? []).filter((item) => item.card.id !== id), problem: null });
      else set({ problem: problemWords(outcome.problem, windowIntl()) });
    },
  };
});

/** Changed designs take their place in the list; new ones come first; removed ones leave. */
export function applyOwnChange(items: readonly OwnDesignView[], designs: readonly OwnDesignView[], removed: readonly number[]): OwnDesignView[] {
  const changed = new Map(designs.map((view) => [view.card.id, view]));
  const gone = new Set(removed);
  const kept = items.filter((item) => !gone.has(item.card.id)).map((item) => changed.get(item.card.id) ?? item);
  const known = new Set(items.map((item) => item.card.id));
  return [...designs.filter((view) => !known.has(view.card.id) && !gone.has(view.card.id)), ...kept];
}

// What changed (an edit sent, a pull, a sync pass, a queue item of a design) arrives as views: applied in place.
contract.on('own.changed', (change) => {
  for (const arrived of changesDuringLoad) arrived.push(change);
  const { designs, removed } = change;
  const items = useMyDesigns.getState().items;
  if (items) useMyDesigns.setState({ items: applyOwnChange(items, designs, removed) });
});

// Signed in as someone else, or signed out: another list.
let shownUser: number | null | undefined;
contract.on('account.changed', (account) => {
  const user = account.status === 'signed-out' ? null : account.user?.id ?? null;
  if (shownUser !== undefined && user !== shownUser && useMyDesigns.getState().items) void useMyDesigns.getState().refresh();
  shownUser = user;
});

// Back after a drop: the changes told meanwhile were not heard.
contract.onConnection((connection) => {
  if (connection === 'open' && useMyDesigns.getState().items) void useMyDesigns.getState().refresh();
});
