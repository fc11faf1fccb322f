import type { Handlers } from '../handler-types';
import { accountView } from '../views/account-view';

export const ACCOUNT_HANDLERS: Handlers<'account.get' | 'account.signIn' | 'account.cancelSignIn' | 'account.signOut'> = {
  'account.get': async (services) => {
    await services.account.confirmUser();
    return accountView(services);
  },
  'account.signIn': async ({ account }) => ({ authorizationUrl: await account.startSignIn() }),
  'account.cancelSignIn': (services) => {
    services.account.signIn.cancel();
    return accountView(services);
  },
  'account.signOut': async (services) => {
    await services.account.signOut();
    return accountView(services);
  },
};
