import { create } from 'zustand';
import type { DiagnosticsView, SettingsView } from '../../../shared';
import { contract } from '../contract/contract';
import { problemWords } from '../views/problem-words';

interface SettingsStore {
  settings: SettingsView | null;
  /** Where the engine log is, and the engine's notices (a rebuilt cache). */
  diagnostics: DiagnosticsView | null;
  /** Why the last change was refused, in the window's words (a field by the label shown beside it). */
  problem: string | null;
  saved: string | null;
  load(): Promise<void>;
  update(changes: { serviceUrl?: string; cacheLimitMb?: number; catalogueRefreshMinutes?: number }, what: string): Promise<void>;
}

export const useSettings = create<SettingsStore>((set) => ({
  settings: null,
  diagnostics: null,
  problem: null,
  saved: null,
  async load() {
    const [outcome, diagnostics] = await Promise.all([contract.request('settings.get', {}), contract.request('diagnostics.get', {})]);
    if (outcome.ok) set({ settings: outcome.value });
    if (diagnostics.ok) set({ diagnostics: diagnostics.value });
  },
  async update(changes, what) {
    const outcome = await contract.request('settings.update', changes);
    set(outcome.ok ? { settings: outcome.value, problem: null, saved: `${what} saved.` } : { problem: problemWords(outcome.problem), saved: null });
  },
}));

contract.on('pull.finished', () => {
  if (useSettings.getState().settings) void useSettings.getState().load();
});
