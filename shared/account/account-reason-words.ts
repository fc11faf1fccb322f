import type { AccountView } from '../contract/views';
import { ENGLISH_INTL, type Words } from '../i18n/create-intl';
import { engineWordsText } from '../i18n/engine-words';

/**
 * Why a new sign-in is needed, in the locale of `intl` (English by default), the same in the window, the tray and the
 * notifications: a sign-in the service refused is said from its code; a sign-in kept here that cannot be used from its
 * facts (`reasonWords`: its path, its mode, the command to fix it), or as the engine wrote it when it sent none. Null
 * when there is no reason.
 */
export function accountReasonWords(account: Pick<AccountView, 'reason' | 'reasonCode' | 'reasonWords'>, intl: Words = ENGLISH_INTL): string | null {
  if (account.reasonCode === 'sign-in-refused') return intl.formatMessage({ id: 'shell.account.signInRefused' });
  if (account.reasonWords) return engineWordsText(intl, account.reasonWords);
  return account.reason;
}

/** Where the sign-in is kept ("in the system keychain", "in a file only you can read"), in the locale of `intl`. */
export function tokenKeptInWords(account: Pick<AccountView, 'tokenKeptIn' | 'tokenKeptInWords'>, intl: Words = ENGLISH_INTL): string {
  return account.tokenKeptInWords ? engineWordsText(intl, account.tokenKeptInWords) : account.tokenKeptIn;
}
