import { describe, expect, it } from 'vitest';
import type { AccountView } from '../../shared/contract/views';
import { createTranslator } from '../../shared/i18n/create-intl';
import { accountReasonWords } from '../../renderer/src/views/shell/account-reason';

const signedOut: AccountView = {
  status: 'signed-out', user: null, reason: null, reasonCode: null, serviceUrl: 'https://designs.example',
  tokenKeptIn: 'in the system keychain', signingIn: false, signInUrl: null,
};
const refused: AccountView = {
  ...signedOut, status: 'needs-sign-in', reasonCode: 'sign-in-refused',
  reason: 'The service no longer accepts this sign-in (access may have been revoked): sign in again.',
};

describe('why a new sign-in is needed, in the window\'s words', () => {
  it('says a refused sign-in in the window\'s language, English as the engine does', async () => {
    expect(accountReasonWords(refused, await createTranslator('en'))).toBe(refused.reason);
    expect(accountReasonWords(refused, await createTranslator('nl'))).toBe('De dienst accepteert deze inlog niet meer (de toegang is misschien ingetrokken): log opnieuw in.');
    expect(accountReasonWords(refused, await createTranslator('de'))).toMatch(/^Der Dienst akzeptiert diese Anmeldung nicht mehr .*Bitte melden Sie sich erneut an\.$/);
  });

  it('says an unusable stored sign-in as the engine wrote it (its path and command), and nothing without a reason', async () => {
    const german = await createTranslator('de');
    const unusable: AccountView = { ...signedOut, reasonCode: 'stored-sign-in-unusable', reason: 'The token file /home/ada/token can be read or changed by other users.' };
    expect(accountReasonWords(unusable, german)).toBe(unusable.reason);
    expect(accountReasonWords(signedOut, german)).toBeNull();
  });
});
