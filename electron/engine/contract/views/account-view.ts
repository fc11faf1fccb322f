import type { AccountView } from '../../../../shared';
import type { EngineServices } from '../../composition/engine-services';

export function accountView({ account, connection }: Pick<EngineServices, 'account' | 'connection'>): AccountView {
  const { session, signIn } = account;
  const state = session.state;
  const user = state.status === 'signed-out' ? null : state.user;
  return {
    status: state.status,
    user: user ? { id: user.id, screenName: user.screen_name, realName: user.real_name ?? null, avatarUrl: `/files/avatars/${user.id}` } : null,
    reason: state.status === 'needs-sign-in' ? state.reason : account.tokenProblem,
    reasonCode: state.status === 'needs-sign-in' ? 'sign-in-refused' : account.tokenProblem !== null ? 'stored-sign-in-unusable' : null,
    reasonWords: state.status === 'needs-sign-in' ? null : account.tokenProblemWords,
    serviceUrl: connection.serviceUrl(),
    tokenKeptIn: session.store.describe(),
    tokenKeptInWords: session.store.keptIn?.() ?? null,
    signingIn: signIn.inProgress,
    signInUrl: signIn.address,
  };
}
