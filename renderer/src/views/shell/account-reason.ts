import type { AccountView } from '../../../../shared';
import type { Words } from '../../../../shared/i18n/create-intl';

/**
 * Why a new sign-in is needed, in the window's language: a sign-in the service refused is said from its code; a sign-in
 * kept here that cannot be used is said as the engine wrote it (in English: its particulars, a path and a command,
 * have no code yet). Null when there is no reason.
 */
export function accountReasonWords(account: AccountView, intl: Words): string | null {
  if (account.reasonCode === 'sign-in-refused') return intl.formatMessage({ id: 'shell.account.signInRefused' });
  return account.reason;
}
