import { create } from 'zustand';
import type { DiagnosticsView, RequestInput, SettingsView } from '../../../shared';
import type { LanguageSetting } from '../../../shared/i18n/locales';
import type { MessageId } from '../../../shared/i18n/messages';
import { contract } from '../contract/contract';
import { problemWords } from '../views/problem-words';
import { useAccount } from './account-store';

interface SettingsStore {
  settings: SettingsView | null;
  /** Where the engine log is, and the engine's notices (a rebuilt cache). */
  diagnostics: DiagnosticsView | null;
  /** Why the last change was refused, in the window's words (a field by the label shown beside it). */
  problem: string | null;
  /** What was saved last, as a message of the catalogs (shown in the window's language, also after it changes). */
  saved: MessageId | null;
  load(): Promise<void>;
  /** Resolves with whether it was saved; `saved` is the message that says so ("settings.cache.saved"). */
  update(changes: { serviceUrl?: string; webUrl?: string; cacheLimitMb?: number; catalogueRefreshMinutes?: number; reviewBeforePublishing?: boolean; startAtLogin?: boolean; startAtLoginAsked?: true; maxUploadKBps?: number; maxDownloadKBps?: number; proxy?: RequestInput<'settings.update'>['proxy']; language?: LanguageSetting }, saved: MessageId): Promise<boolean>;
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
  async update(changes, saved) {
    const outcome = await contract.request('settings.update', changes);
    set(outcome.ok ? { settings: outcome.value, problem: null, saved } : { problem: problemWords(outcome.problem), saved: null });
    return outcome.ok;
  },
}));

contract.on('pull.finished', () => {
  if (useSettings.getState().settings) void useSettings.getState().load();
});

// Another service chosen elsewhere (the first run's welcome, another window): read the settings again, and a problem
// with the old address is no longer the case.
useAccount.subscribe((state, previous) => {
  const serviceUrl = state.account?.serviceUrl;
  if (!previous.account || serviceUrl === undefined || previous.account.serviceUrl === serviceUrl) return;
  const settings = useSettings.getState().settings;
  if (settings && settings.serviceUrl !== serviceUrl) {
    useSettings.setState({ problem: null });
    void useSettings.getState().load();
  }
});
