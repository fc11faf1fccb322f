import type { Handlers } from '../handler-types';
import { accountView } from '../views/account-view';

export const ACCOUNT_HANDLERS: Handlers<'account.get' | 'account.signIn' | 'account.cancelSignIn' | 'account.signOut'> = {
  'account.get': async (engine) => {
    await engine.confirmUser();
    return accountView(engine);
  },
  'account.signIn': async (engine) => {
    engine.requireServiceUrl();
    return { authorizationUrl: await engine.signIn.start() };
  },
  'account.cancelSignIn': (engine) => {
    engine.signIn.cancel();
    return accountView(engine);
  },
  'account.signOut': async (engine) => {
    engine.signIn.cancel();
    await engine.session.signOut();
    return accountView(engine);
  },
};
