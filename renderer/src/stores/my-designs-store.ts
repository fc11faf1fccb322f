import { create } from 'zustand';
import type { ContractProblem, FieldErrors, LicenseCode, OwnDesignView } from '../../../shared';
import { contract } from '../contract/contract';

export interface DesignFormFields {
  name: string;
  excerpt: string;
  license: LicenseCode;
  description: string;
  /** The cover image (editing only: a new design has no images yet); null for none. */
  primaryImageId?: number | null;
}

/** What a save ended with: done, or the problem (field errors in the service's own words). */
export type SaveResult = { ok: true } | { ok: false; message: string; fieldErrors: FieldErrors };

const failed = (problem: ContractProblem): SaveResult => ({ ok: false, message: problem.message, fieldErrors: problem.kind === 'validation' ? problem.fieldErrors : {} });

interface MyDesignsStore {
  items: OwnDesignView[] | null;
  /** Why the list could not be read. */
  listProblem: string | null;
  /** What the person's last publish or delete ended with when it failed: kept until dismissed or another succeeds. */
  problem: string | null;
  /** Reads the list as the view opens: what an earlier visit said is gone. */
  load(): Promise<void>;
  /** Reads the list again because the queue or sync changed it: a failed action's problem stays shown. */
  refresh(): Promise<void>;
  dismissProblem(): void;
  create(fields: DesignFormFields): Promise<SaveResult>;
  update(id: number, fields: DesignFormFields): Promise<SaveResult>;
  publish(id: number): Promise<void>;
  remove(id: number): Promise<void>;
}

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
      const outcome = await contract.request('own.list', {});
      set(outcome.ok ? { items: outcome.value, listProblem: null } : { listProblem: outcome.problem.message });
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
      else set({ problem: outcome.problem.message });
    },
    async remove(id) {
      const outcome = await contract.request('own.delete', { id, confirm: true });
      if (outcome.ok) set({ items: (get().items ?? []).filter((item) => item.card.id !== id), problem: null });
      else set({ problem: outcome.problem.message });
    },
  };
});

contract.on('sync.changed', () => {
  // Sync states of own designs follow the queue.
  if (useMyDesigns.getState().items) void useMyDesigns.getState().refresh();
});

let editsReload: ReturnType<typeof setTimeout> | undefined;
contract.on('queue.item', (item) => {
  // An edit saved here while offline was sent (or refused): the list shows what the service now holds.
  if (item.kind !== 'update-design' || !useMyDesigns.getState().items || editsReload) return;
  editsReload = setTimeout(() => {
    editsReload = undefined;
    void useMyDesigns.getState().refresh();
  }, 100);
});
