import { create } from 'zustand';
import type { AccountView } from '../../../shared';
import { contract } from '../contract/contract';

interface AccountStore {
  account: AccountView | null;
  /** What the last sign-in attempt ended with, when it did not sign in (denied, timed out…). */
  notice: string | null;
  load(): Promise<void>;
  signIn(): Promise<void>;
  cancelSignIn(): Promise<void>;
  signOut(): Promise<void>;
}

export const useAccount = create<AccountStore>((set) => ({
  account: null,
  notice: null,
  async load() {
    const outcome = await contract.request('account.get', {});
    if (outcome.ok) set({ account: outcome.value });
  },
  async signIn() {
    set({ notice: null });
    const outcome = await contract.request('account.signIn', {});
    if (!outcome.ok) set({ notice: outcome.problem.message });
  },
  async cancelSignIn() {
    const outcome = await contract.request('account.cancelSignIn', {});
    if (outcome.ok) set({ account: outcome.value });
  },
  async signOut() {
    const outcome = await contract.request('account.signOut', {});
    if (outcome.ok) set({ account: outcome.value, notice: null });
  },
}));

contract.on('account.changed', (account) => useAccount.setState((state) => ({
  account,
  // Another service chosen: what the last sign-in ended with was about the one before.
  notice: state.account && state.account.serviceUrl !== account.serviceUrl ? null : state.notice,
})));
contract.on('account.signInEnded', ({ outcome, message }) => useAccount.setState({ notice: outcome === 'signed-in' ? null : message }));
